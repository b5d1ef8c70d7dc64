// Reads a PyTorch profiler trace, either form, into an ImportedTrace:
// Kineto's JSON object ("traceEvents", "distributedInfo",
// "baseTimeNanoseconds", ...) or the legacy profiler's JSON array of
// events. The event list is read one event at a time, so a large trace
// costs its events, not a tree of the whole document.
#pragma once

#include "read/imported_trace.hpp"

#include <string>
#include <string_view>

namespace prof::kineto {

/// Reads `text` (a whole trace) into `trace`. Throws TraceReadError:
/// what was expected, at which byte offset of `text`.
void read_pytorch_trace(std::string_view text, ImportedTrace &trace);

} // namespace prof::kineto
