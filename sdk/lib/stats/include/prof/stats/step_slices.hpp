// The slices and flows of a few chosen training steps, kept whole so that
// the critical path of each step can be walked (critical_path.hpp). The
// one-pass StatsAggregator keeps no slices; this collector keeps only those
// that overlap a chosen step's window, so its memory follows the steps
// asked for, not the report.
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>
#include <prof/stats/arg_keys.hpp>

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace prof::stats {

/// A step and the time it spans on every rank together: from the earliest
/// begin of its step slices on any process to their latest end.
struct StepWindow {
  uint64_t step = 0;
  uint64_t begin = 0, end = 0;
};

/// The steps `--step` and the default choice name: the `slowest` steps by
/// their longest time on a rank, and each of `wanted` that the report has.
/// Windows come from StatsAggregator::steps(), in step order.
std::vector<StepWindow> choose_step_windows(const StatsAggregator &aggregator, size_t slowest,
                                            const std::vector<uint64_t> &wanted);

/// One slice kept for the walk. Times in ns, [begin, end).
struct KeptSlice {
  uint64_t begin = 0, end = 0;
  prof_string_id name = 0;
  uint16_t kind = PROF_CATEGORY_OTHER;
  uint64_t correlation = 0;        ///< prof_event::id
  prof_string_id communicator = 0; ///< a collective's `communicator`, else 0
  uint64_t sequence = 0;           ///< its `sequence`
  uint64_t arrival = 0;            ///< its begin less its `queued` argument
  uint32_t parent = UINT32_MAX; ///< index of the enclosing slice on its track, UINT32_MAX if none
  bool collective() const { return communicator != 0; }
};

/// One track's kept slices, by begin (outer before inner at one begin),
/// each with its parent; `device` when the track is on a device.
struct TrackSlices {
  prof_track_id process = 0; ///< ExportHost::owner_process of the track
  bool device = false;
  prof_track_kind kind = PROF_TRACK_CUSTOM;
  std::vector<KeptSlice> slices;
};

/// The span of one step on one process, and the track of its latest end.
struct StepSpan {
  uint64_t begin = UINT64_MAX, end = 0;
  prof_track_id track = 0;
};

/// One end of a flow (prof_event with type PROF_EVENT_FLOW).
struct FlowEnd {
  prof_track_id track = 0;
  uint64_t ts = 0;
};

class StepSliceCollector {
public:
  StepSliceCollector(const ExportHost &host, std::vector<StepWindow> windows);

  /// Keeps the slices that overlap a window (and every flow end in one).
  /// Call in any order of events; finish() before reading.
  void add(const prof_event *events, size_t count);
  /// Sorts each track's slices and links them to their parents.
  void finish();

  const std::vector<StepWindow> &windows() const { return windows_; }
  const std::map<prof_track_id, TrackSlices> &tracks() const { return tracks_; }
  /// By (step, process): each process's span of each chosen step.
  const std::map<std::pair<uint64_t, prof_track_id>, StepSpan> &step_spans() const {
    return step_spans_;
  }
  /// Flow begins by flow id, and flow ends by (track, ts) with their id.
  const std::unordered_map<uint64_t, FlowEnd> &flow_begins() const { return flow_begins_; }
  const std::map<std::pair<prof_track_id, uint64_t>, uint64_t> &flow_ends() const {
    return flow_ends_;
  }
  /// Slices kept, over every track.
  size_t slice_count() const { return slices_; }

private:
  using KeyCache = ArgKeyCache;
  const prof_arg *arg_named(const prof_event &e, std::string_view key, KeyCache &keys);
  /// The window that [begin, end) overlaps (that holds `begin` when they
  /// are one moment), nullptr if none.
  const StepWindow *window_of(uint64_t begin, uint64_t end) const;
  TrackSlices &track_of(prof_track_id track);

  ExportHost host_;
  std::vector<StepWindow> windows_; // by begin
  std::map<prof_track_id, TrackSlices> tracks_;
  std::map<std::pair<uint64_t, prof_track_id>, StepSpan> step_spans_;
  std::unordered_map<uint64_t, FlowEnd> flow_begins_;
  std::map<std::pair<prof_track_id, uint64_t>, uint64_t> flow_ends_;
  KeyCache step_keys_, communicator_keys_, sequence_keys_, queued_keys_;
  size_t slices_ = 0;
};

} // namespace prof::stats
