// One buffered line of the trace: a slice, or an instant (no duration).
#ifndef PROF_PLUGINS_TRACE_RECORD_HPP
#define PROF_PLUGINS_TRACE_RECORD_HPP

#include <prof/event.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace prof::trace {

struct TraceRecord {
  uint64_t ts;
  uint64_t duration;
  prof_track_id track;
  prof_string_id name;
  bool instant;
  prof_args_id args = 0;
};

/// Orders records by start time; records that start together keep the order
/// in which they arrived.
inline void sort_by_start(std::vector<TraceRecord> &records) {
  std::stable_sort(records.begin(), records.end(),
                   [](const TraceRecord &a, const TraceRecord &b) { return a.ts < b.ts; });
}

} // namespace prof::trace

#endif
