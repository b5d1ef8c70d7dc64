// One element of a PyTorch trace's event list ("traceEvents" of Kineto's
// form, or the legacy form's array) turned into prof's event model:
//   cpu_op (and every legacy event)  -> an operator slice, category "torch"
//   user_annotation                  -> an annotation slice, category "torch"
//   gpu_user_annotation              -> the same on the device's stream
//   python_function                  -> an annotation slice, category "python"
//   cuda_runtime, cuda_driver        -> runtime and driver API slices
//   kernel, gpu_memcpy, gpu_memset   -> kernel, copy (direction from the name)
//                                       and set slices on the device's stream
//   cuda_sync                        -> a sync slice on the device's stream
//   "[memory]" instants              -> memory instants (event.h's names)
//   ac2g and fwdbwd flows ("s"/"f")  -> flow ends (ids matched later)
//   "M" metadata                     -> process and thread names, rank labels
// A backend's collective ("gloo:all_reduce"), a c10d operator
// ("c10d::allreduce_") and "record_param_comms" are marked for the
// collectives pass. Bad shapes throw TraceReadError with the offset.
#pragma once

#include "read/imported_trace.hpp"

#include <prof/activity/json_reader.hpp>

#include <string>
#include <string_view>
#include <unordered_map>

namespace prof::kineto {

/// Converts the trace's events one by one into an ImportedTrace.
class KinetoEventReader {
public:
  /// `document` is the whole text the events' offsets point into.
  KinetoEventReader(ImportedTrace &trace, std::string_view document);

  /// Adds one event object of the trace.
  void add(const activity::JsonValue &event);

private:
  void add_metadata(const activity::JsonValue &event, std::string_view name);
  void add_slice(const activity::JsonValue &event, std::string_view name, std::string_view cat);
  void add_instant(const activity::JsonValue &event, std::string_view name, std::string_view cat);
  void add_flow(const activity::JsonValue &event, std::string_view cat, char phase);
  void add_operator_args(ImportedEvent &out, const activity::JsonValue *args);
  void add_device_args(ImportedEvent &out, const activity::JsonValue *args);
  /// The event's thread: its "pid" and "tid".
  Lane thread_lane(const activity::JsonValue &event);
  /// The event's device row: "device" and "stream" of its args, else pid and tid.
  Lane device_lane(const activity::JsonValue &event, const activity::JsonValue *args);
  /// A "pid" or "tid" value: its number, or a negative id per distinct text.
  int64_t lane_number(const activity::JsonValue *value, std::string_view field);
  /// "ts" or "dur" in exact ns from the number's text (µs with decimals).
  int64_t time_ns(const activity::JsonValue &event, std::string_view field, bool required);
  prof_string_id text(std::string_view value) { return trace_.strings.intern(value); }
  void note_pid(int64_t pid);

  ImportedTrace &trace_;
  std::string_view text_;
  std::unordered_map<std::string, int64_t> named_lanes_;
  struct Keys {
    prof_string_id sequence_number, forward_thread, input_shapes, input_types, grid, block,
        registers, stream, device, context, bytes, operation, address, memory, total_allocated,
        total_reserved;
  } keys_{};
  prof_string_id torch_ = 0, python_ = 0, alloc_ = 0, free_ = 0, device_memory_ = 0;
};

/// Whether `name` is a backend's collective as c10d records it: a lowercase
/// backend name, one colon, the operation ("gloo:all_reduce", "nccl:send").
bool is_backend_collective(std::string_view name);
/// Whether `name` is a c10d operator of a collective ("c10d::allreduce_").
bool is_c10d_collective(std::string_view name);
/// Whether `name` is an autograd node or its evaluation ("AddmmBackward0",
/// "autograd::engine::evaluate_function: AddmmBackward0").
bool is_backward_name(std::string_view name);

} // namespace prof::kineto
