// Fuzzes the kineto importer's reader of PyTorch traces (both forms) and the passes
// that follow it (operator nesting, steps, collectives, flows). A rejection
// must be TraceReadError, with an offset inside the input; a trace that
// reads must go through every pass. The first input byte, when odd, gives
// the trace a rank (the collectives pass reads it).
#include "read/trace_passes.hpp"
#include "read/trace_read_error.hpp"
#include "read/trace_reader.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
  prof::kineto::ImportedTrace trace;
  try {
    prof::kineto::read_pytorch_trace(text, trace);
  } catch (const prof::kineto::TraceReadError &error) {
    if (error.offset > text.size()) std::abort();
    return 0;
  }
  if (data[0] & 1) trace.distributed.rank = data[0] >> 1;
  prof::kineto::run_trace_passes(trace);
  return 0;
}
