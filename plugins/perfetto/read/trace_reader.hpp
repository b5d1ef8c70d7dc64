// read_trace: a Perfetto protobuf trace (a Trace message: TracePackets, each
// as field 1) into a ReadTrace. Per packet sequence it keeps the interned
// data, the defaults and the sequence-scoped clocks (sequence_state.hpp,
// clock_converter.hpp); it reads TrackDescriptors, TrackEvents (slice
// begins and ends, instants, counters, flows, debug annotations) and
// PerfSamples with their interned call stacks, and skips every other packet.
//
// A malformed packet throws WireError with what was expected at which byte
// offset. A file that ends inside its last packet is read up to that packet
// (ReadTrace::cut says where), as the trace processor reads one, unless no
// packet before it is whole.
#ifndef PROF_PLUGINS_PERFETTO_READ_TRACE_READER_HPP
#define PROF_PLUGINS_PERFETTO_READ_TRACE_READER_HPP

#include "read/read_trace.hpp"

#include <string_view>

namespace prof::perfetto {

/// Reads the trace in `data` into `trace`; throws WireError.
void read_trace(std::string_view data, ReadTrace &trace);

} // namespace prof::perfetto

#endif
