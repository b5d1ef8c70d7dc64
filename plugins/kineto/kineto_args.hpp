// An event's Kineto category and its "args" in Kineto's names:
//   operator                      cpu_op: "Sequence number", "Fwd thread id",
//                                 "Input Dims" [[2, 8], []], "Input type"
//   annotation                    user_annotation (python_function for the
//                                 category "python", gpu_user_annotation on
//                                 a device)
//   communication on a device     kernel named ncclDevKernel_NAME, with the
//                                 device args below and record_param_comms'
//   communication                 user_annotation (cpu_op for a c10d
//                                 operator) with record_param_comms' names:
//                                 "Collective name", "Process Group Name",
//                                 "Seq", "Group size", "In msg nelems",
//                                 "Out msg nelems", "dtype", "Process Group
//                                 Ranks"
//   runtime API, driver API       cuda_runtime, cuda_driver: "correlation"
//   kernel, copies, set, sync     kernel, gpu_memcpy, gpu_memset, cuda_sync:
//                                 "grid", "block", "registers per thread",
//                                 "bytes", "device", "stream", "context",
//                                 "correlation"; "device" and "stream" are
//                                 the row's when the source gave none
//   names on a device             as Kineto names them, where tools read the
//                                 kind of work from the name (HTA does):
//                                 copies "Memcpy HtoD (NAME)", sets "Memset
//                                 (NAME)", syncs "Sync (NAME)" unless NAME
//                                 already says so
//   memory instants               cpu_instant_event "[memory]": "Addr",
//                                 "Bytes" (negative for a free), "Total
//                                 Allocated", "Total Reserved", "Device
//                                 Type", "Device Id"
//   anything else                 its display category, args by prof's names
#ifndef PROF_PLUGINS_KINETO_KINETO_ARGS_HPP
#define PROF_PLUGINS_KINETO_KINETO_ARGS_HPP

#include "kineto_places.hpp"

#include <prof/plugin.hpp>

#include <string>
#include <string_view>

namespace prof::kineto {

/// What Kineto's NCCL kernels' names begin with; HTA counts a device
/// kernel named so as communication.
inline constexpr std::string_view kCollectiveKernelPrefix = "ncclDevKernel_";

/// The name Kineto gives event `e` (named `name` in the report) at `place`.
std::string kineto_name(const prof_event &e, const KinetoPlace &place, std::string_view name);

/// Kineto's "cat" for event `e` at `place`.
std::string kineto_category(const ExportHost &host, const prof_event &e, const KinetoPlace &place);

/// Appends ,"args":{...} for event `e` (nothing when it has none).
void append_kineto_args(std::string &out, const ExportHost &host, const prof_event &e,
                        const KinetoPlace &place);

/// A dtype as torch's TypeMeta names it ("float") in record_param_comms'
/// ScalarType spelling ("Float"); other text as it is.
std::string scalar_type_name(std::string_view dtype);

/// Ranks as reports show them ("0-3,5") as record_param_comms lists them
/// ("[0, 1, 2, 3, 5]").
std::string ranks_list(std::string_view ranks);

} // namespace prof::kineto

#endif
