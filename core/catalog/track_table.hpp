// Session-wide tracks (process, thread, device, counter, ...). Declaring is
// thread-safe; lookups of handed-out ids need no lock.
#pragma once

#include "core/catalog/stable_vector.hpp"
#include "core/catalog/string_table.hpp"

#include <prof/event.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace prof::core {

/// One track: the descriptor exporters see (name and unit point into the
/// entry's own strings) plus the interned name.
struct TrackEntry {
  prof_track_desc desc{};
  std::string name;
  std::string unit;
  prof_string_id name_id = 0;
  /// The descriptor under its latest rename, nullptr when never renamed.
  std::atomic<const prof_track_desc *> renamed{nullptr};
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
  /// As declare(), but a process or thread track declared before under
  /// another name takes `desc`'s name (a rename, see renames()): what the
  /// application's own processes declare, so that a process is named after
  /// the program it became at exec and a thread after its latest name.
  prof_track_id declare_renaming(const prof_track_desc *desc);
  /// As declare(), but never one with a track declared before: an imported
  /// file names its own tracks, two threads of one id included.
  prof_track_id declare_distinct(const prof_track_desc *desc);
  /// How many renames there were so far.
  size_t renames() const { return renames_published_.load(std::memory_order_acquire); }
  /// Renames [from, to) in the order they happened: the track and its new name.
  std::vector<std::pair<prof_track_id, std::string>> renames_between(size_t from, size_t to) const;
  /// Adds a track with a given id (reading a report); ids must come in order.
  prof_track_id restore(prof_track_id id, const prof_track_desc &desc);
  /// The track as declared, nullptr for 0 or an id not handed out.
  const TrackEntry *find(prof_track_id id) const;
  /// The track's descriptor under its latest name (see declare_renaming),
  /// nullptr for 0 or an id not handed out. Stays valid with the table.
  const prof_track_desc *current(prof_track_id id) const;
  /// The process tracks of process `pid`, in id order (several only when a
  /// merged report was restored).
  std::vector<prof_track_id> processes(int32_t pid) const;
  /// Number of ids handed out plus one (ids are 1 .. size()-1).
  size_t size() const { return published_.load(std::memory_order_acquire); }
  /// Why the last declare() returned 0.
  std::string last_error() const;

private:
  enum class Merge { Same, Renaming, Never };
  prof_track_id declare(const prof_track_desc *desc, Merge merge);
  prof_track_id add_locked(const prof_track_desc &desc);
  void rename_locked(prof_track_id id, const char *name);

  StringTable &strings_;
  StableVector<TrackEntry> entries_; // [0] is the unused "no track"
  std::map<std::tuple<int, int32_t, int32_t>, prof_track_id> process_threads_;
  // Device, cluster and engine tracks are shared by the sources that declare
  // them (gcu and sip-pmc both place tracks under "GCU 0").
  // Tracks of one owner (pid) only: each process's streams are its own.
  std::map<std::tuple<int, prof_track_id, int32_t, prof_clock_id, std::string, int32_t, uint32_t>,
           prof_track_id>
      device_parts_;
  std::multimap<int32_t, prof_track_id> processes_; ///< by pid, declared or restored
  mutable std::mutex mutex_;
  std::string last_error_;
  std::atomic<size_t> published_{1};
  std::vector<std::pair<prof_track_id, std::string>> renames_; ///< under mutex_
  /// Descriptors under their new names; a deque, so that none ever moves.
  std::deque<std::pair<prof_track_desc, std::string>> renamed_descs_;
  std::map<prof_track_id, size_t> latest_rename_; ///< index into renames_
  std::atomic<size_t> renames_published_{0};
};

} // namespace prof::core
