// TrackPlan: the report's tracks for a read Perfetto trace, declared through
// the host on first use, parents first:
//   process descriptor   PROF_TRACK_PROCESS (pid), at the top level
//   thread descriptor    PROF_TRACK_THREAD (pid, tid) under its pid's process
//                        (one named "process <pid>" where the trace has none)
//   counter descriptor   PROF_TRACK_COUNTER with its unit, under its parent
//   any other            the kind track_kinds.hpp reads from its name and
//                        place, under its parent
//   an undescribed uuid  a custom track "track <uuid>" ("global" for uuid 0)
// Tracks other than processes and threads name no owner (prof_track_desc::pid
// 0): their place under a process says whose they are, as prof's sources
// declare them.
#ifndef PROF_PLUGINS_PERFETTO_READ_TRACK_PLAN_HPP
#define PROF_PLUGINS_PERFETTO_READ_TRACK_PLAN_HPP

#include "read/read_trace.hpp"

#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {

class TrackPlan {
public:
  TrackPlan(const ReadTrace &trace, const Host &host);

  /// The report's track for the track with `uuid`.
  prof_track_id track(uint64_t uuid);
  /// The thread track of `tid` in process `pid` (for CPU samples).
  prof_track_id thread(int32_t pid, int32_t tid);
  /// Whether the track with `uuid` takes counter values (a CounterDescriptor).
  bool counter(uint64_t uuid) const {
    const TrackDescription *d = trace_.track(uuid);
    return d != nullptr && d->type == TrackType::Counter;
  }

  /// The pids of the trace's profiled processes, in the order of their
  /// descriptors: those whose command line it names when it names any (prof's
  /// exports name the profiled process's only), else every process.
  std::vector<int32_t> pids() const;
  /// The first profiled process's name ("" when the trace describes none).
  std::string program() const;

private:
  prof_track_id declare(size_t index, int depth);
  prof_track_id process(int32_t pid, int depth);
  prof_track_id add(prof_track_kind kind, const std::string &name, prof_track_id parent, int pid,
                    int tid, int index, const char *unit);
  std::string process_name(const TrackDescription &d) const;

  const ReadTrace &trace_;
  const Host &host_;
  std::vector<prof_track_id> declared_; ///< by description index, 0 until declared
  std::vector<bool> visiting_;          ///< on the chain being declared (cycle guard)
  std::vector<bool> holds_tracks_;      ///< by description index: a named track is under it
  std::unordered_map<int32_t, size_t> process_index_;     ///< pid -> its first process description
  std::unordered_multimap<int32_t, size_t> thread_index_; ///< tid -> its thread descriptions
  std::map<int32_t, prof_track_id> stand_in_processes_;
  std::map<std::pair<int32_t, int32_t>, prof_track_id> threads_; ///< (pid, tid) -> thread track
  std::unordered_map<uint64_t, prof_track_id> undescribed_;
  std::unordered_map<prof_track_id, int> kinds_; ///< id -> its prof_track_kind
};

} // namespace prof::perfetto

#endif
