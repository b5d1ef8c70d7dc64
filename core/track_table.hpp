// Session-wide tracks (process, thread, device, counter, ...). Declaring is
// thread-safe; lookups of handed-out ids need no lock.
#pragma once

#include "core/string_table.hpp"

#include <prof/event.h>

#include <tbb/concurrent_vector.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace prof::core {

/// One track: the descriptor exporters see (name and unit point into the
/// entry's own strings) plus the interned name.
struct TrackEntry {
  prof_track_desc desc{};
  std::string name;
  std::string unit;
  prof_string_id name_id = 0;
};

class TrackTable {
public:
  explicit TrackTable(StringTable &strings);
  TrackTable(const TrackTable &) = delete;
  TrackTable &operator=(const TrackTable &) = delete;

  /// Declares a track; returns its id (1-based) or 0 when `desc` is invalid
  /// (NULL, unknown kind, missing name, unknown parent). Process and thread
  /// tracks with the same pid/tid are one track, whoever declares them.
  prof_track_id declare(const prof_track_desc *desc);
  /// Adds a track with a given id (reading a report); ids must come in order.
  prof_track_id restore(prof_track_id id, const prof_track_desc &desc);
  /// The track, nullptr for 0 or an id not handed out.
  const TrackEntry *find(prof_track_id id) const;
  /// Number of ids handed out plus one (ids are 1 .. size()-1).
  size_t size() const { return published_.load(std::memory_order_acquire); }
  /// Why the last declare() returned 0.
  std::string last_error() const;

private:
  prof_track_id add_locked(const prof_track_desc &desc);

  StringTable &strings_;
  tbb::concurrent_vector<TrackEntry> entries_; // [0] is the unused "no track"
  std::map<std::tuple<int, int32_t, int32_t>, prof_track_id> process_threads_;
  // Device, cluster and engine tracks are shared by the sources that declare
  // them (gcu and sip-pmc both place tracks under "GCU 0").
  std::map<std::tuple<int, prof_track_id, int32_t, prof_clock_id, std::string>, prof_track_id>
      device_parts_;
  mutable std::mutex mutex_;
  std::string last_error_;
  std::atomic<size_t> published_{1};
};

} // namespace prof::core
