// Folds events into per-activity and per-counter statistics, keyed by ids
// only: consume() is O(1) per event and strings are resolved at the end.
#ifndef PROF_PLUGINS_SUMMARY_AGGREGATOR_HPP
#define PROF_PLUGINS_SUMMARY_AGGREGATOR_HPP

#include "activity_stats.hpp"
#include "track_classifier.hpp"

#include <prof/plugin.hpp>

#include <cstdint>
#include <unordered_map>

namespace prof::summary {

/// The groups of the statistics table, in the order they are printed.
enum class ActivityGroup : uint8_t {
  Device = 0,    ///< slices on device, cluster and engine tracks
  Api = 1,       ///< host slices with category "api"
  OsRuntime = 2, ///< host slices with category "osrt"
  ThreadStates = 3, ///< host slices with category "thread-state" (cpu-perf)
  CpuSchedule = 4,  ///< host slices with category "cpu-schedule": threads on CPU rows
  Ranges = 5        ///< every other slice
};

/// Title printed in the Type column on a group's first row.
const char *group_title(ActivityGroup group);

/// Identity of one aggregated activity.
struct ActivityKey {
  ActivityGroup group;
  prof_track_id device; ///< enclosing DEVICE track for device activities, else 0
  prof_string_id name;
  bool operator==(const ActivityKey &) const = default;
};

struct ActivityKeyHash {
  size_t operator()(const ActivityKey &key) const {
    uint64_t bits = (static_cast<uint64_t>(key.device) << 32) | key.name;
    bits ^= static_cast<uint64_t>(key.group) << 61;
    return std::hash<uint64_t>()(bits * 0x9E3779B97F4A7C15ull);
  }
};

class SummaryAggregator {
public:
  explicit SummaryAggregator(const ExportHost &host) : host_(host), tracks_(host) {}

  void add(const prof_event &event);

  uint64_t events_seen() const { return events_seen_; }
  const std::unordered_map<ActivityKey, DurationStats, ActivityKeyHash> &activities() const {
    return activities_;
  }
  const std::unordered_map<prof_track_id, CounterStats> &counters() const { return counters_; }

private:
  ActivityGroup host_group(prof_string_id category);

  ExportHost host_;
  console::TrackClassifier tracks_;
  std::unordered_map<prof_string_id, ActivityGroup> category_groups_;
  std::unordered_map<ActivityKey, DurationStats, ActivityKeyHash> activities_;
  std::unordered_map<prof_track_id, CounterStats> counters_;
  uint64_t events_seen_ = 0;
};

} // namespace prof::summary

#endif
