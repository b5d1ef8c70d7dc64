// Folds events into per-activity and per-counter statistics, keyed by ids
// only: consume() is O(1) per event and strings are resolved at the end.
#pragma once

#include <prof/stats/activity_stats.hpp>
#include <prof/stats/track_classifier.hpp>

#include <prof/plugin.hpp>

#include <array>
#include <cstdint>
#include <unordered_map>

namespace prof::stats {

/// The groups of the statistics table, in the order they are printed.
enum class ActivityGroup : uint8_t {
  Device = 0,       ///< slices on device, cluster and engine tracks
  Api = 1,          ///< host slices of the runtime or driver API categories (or "api")
  OsRuntime = 2,    ///< host slices with category "osrt"
  ThreadStates = 3, ///< host slices with category "thread-state" (cpu-perf)
  CpuSchedule = 4,  ///< host slices with category "cpu-schedule": threads on CPU rows
  Ranges = 5,       ///< every other slice
  Operators = 6     ///< host slices of the operator category (a framework's operators)
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
  friend struct AggregatorWire; // its bytes, for `prof stats` over MPI

public:
  explicit SummaryAggregator(const ExportHost &host) : host_(host), tracks_(host) {}

  void add(const prof_event &event);
  /// Adds what `other` has seen; both must read ids from the same host.
  void merge(const SummaryAggregator &other);

  uint64_t events_seen() const { return events_seen_; }
  /// Where tracks sit, as this aggregator has classified them (cached).
  TrackClassifier &tracks() { return tracks_; }
  const std::unordered_map<ActivityKey, DurationStats, ActivityKeyHash> &activities() const {
    return activities_;
  }
  const std::unordered_map<prof_track_id, CounterStats> &counters() const { return counters_; }

private:
  /// Recently used keys and their entries in activities_, direct-mapped: most
  /// events hit it and skip the map. (Map nodes never move, so the pointers
  /// hold while the map grows; a copy starts empty, as its map is another.)
  struct RecentActivities {
    struct Entry {
      ActivityKey key{};
      DurationStats *stats = nullptr;
    };
    std::array<Entry, 256> entries{};
    RecentActivities() = default;
    RecentActivities(const RecentActivities &) {}
    RecentActivities &operator=(const RecentActivities &) {
      entries = {};
      return *this;
    }
  };

  ActivityGroup host_group(prof_string_id category);
  DurationStats &activity(const ActivityKey &key);

  ExportHost host_;
  TrackClassifier tracks_;
  std::unordered_map<prof_string_id, ActivityGroup> category_groups_;
  std::unordered_map<ActivityKey, DurationStats, ActivityKeyHash> activities_;
  RecentActivities recent_;
  std::unordered_map<prof_track_id, CounterStats> counters_;
  uint64_t events_seen_ = 0;
};

} // namespace prof::stats
