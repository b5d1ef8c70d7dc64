// emit_trace: a read Perfetto trace through the import host, as a source
// would emit it:
// - Slices: SLICE_BEGIN and SLICE_END matched per track, the END closing the
//   latest open BEGIN (of its name and category when it gives them, as the
//   trace processor matches them), in the order their sequence wrote them (a track
//   written from several sequences: in time order). The END's annotations
//   join the BEGIN's. An END with nothing open is left out; a BEGIN never
//   ended closes at the trace's last event. Their correlation id is the
//   BEGIN's correlation_id, else its first flow id (prof's exporter writes
//   a slice's correlation id as one).
// - Instants: INSTANT events; one with flow ids and neither category nor
//   annotation (what prof's exporter writes for a flow event) is a flow only.
// - Flows: flow ids of instants, in time order per id: the first a BEGIN,
//   later ones STEPs, a terminating one the END.
// - Counters: COUNTER events and extra counter values on counter tracks,
//   summed on their sequence when the counter is incremental, scaled by its
//   unit_multiplier.
// - CPU samples on the thread track of their pid and tid.
// - Facts: the program (the first process's name), the format "perfetto",
//   the pids, the rank (the user's, else the file name's), the start (the
//   first event) and a wall-clock anchor when a snapshot had CLOCK_REALTIME
//   beside the trace clock.
// What was left out is logged as warnings, one line each.
#ifndef PROF_PLUGINS_PERFETTO_READ_TRACE_EMITTER_HPP
#define PROF_PLUGINS_PERFETTO_READ_TRACE_EMITTER_HPP

#include "read/read_trace.hpp"

#include <prof/plugin.hpp>

namespace prof::perfetto {

void emit_trace(const ReadTrace &trace, const ImportHost &host, const prof_import_request &request);

} // namespace prof::perfetto

#endif
