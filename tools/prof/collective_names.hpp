// How PyTorch names collectives, read the way the torch source reads them:
// a backend's "gloo:all_reduce", a c10d operator "c10d::allreduce_", and
// record_param_comms' "Collective name" all give the operation
// "all_reduce"; element types as torch's TypeMeta names them ("float").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace prof::tool {

/// The operation a collective's name names, as the backends name it:
/// "c10d::allreduce_", "gloo:all_reduce" and "allreduce" give "all_reduce",
/// "c10d::alltoall_base_" "all_to_all", "gloo:recvAnySource" "recv".
std::string collective_operation(std::string_view name);

/// Whether `operation` (from collective_operation) is one c10d has.
bool known_collective_operation(std::string_view operation);

/// A ScalarType's name as record_param_comms writes it ("Float", "BFloat16")
/// in torch's TypeMeta spelling, which the torch source reports ("float",
/// "c10::BFloat16"); other text as it is.
std::string dtype_name(std::string_view scalar_type);

/// Bytes per element of a dtype in either spelling, 0 when unknown.
uint32_t dtype_size(std::string_view dtype);

} // namespace prof::tool
