#include "core/catalog/track_table.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace prof::core {

TrackTable::TrackTable(StringTable &strings) : strings_(strings) { entries_.emplace_back(); }

prof_track_id TrackTable::declare(const prof_track_desc *desc) {
  return declare(desc, Merge::Same);
}

prof_track_id TrackTable::declare_renaming(const prof_track_desc *desc) {
  return declare(desc, Merge::Renaming);
}

prof_track_id TrackTable::declare_distinct(const prof_track_desc *desc) {
  return declare(desc, Merge::Never);
}

prof_track_id TrackTable::declare(const prof_track_desc *desc, Merge merge) {
  const bool renaming = merge == Merge::Renaming;
  std::lock_guard lock(mutex_);
  if (desc == nullptr || desc->struct_size < offsetof(prof_track_desc, clock)) {
    last_error_ = "track descriptor is missing or too small";
    return 0;
  }
  // A plugin's kind may be no prof_track_kind at all: checked as the
  // integer it is, never loaded as the enum.
  int32_t kind = 0;
  static_assert(sizeof desc->kind == sizeof kind);
  std::memcpy(&kind, &desc->kind, sizeof kind);
  if (kind < PROF_TRACK_PROCESS || kind > PROF_TRACK_CUSTOM) {
    last_error_ = "track kind " + std::to_string(kind) + " is unknown";
    return 0;
  }
  if (desc->name == nullptr) {
    last_error_ = "track has no name";
    return 0;
  }
  if (desc->parent >= entries_.size()) {
    last_error_ = "track '" + std::string(desc->name) + "' names unknown parent " +
                  std::to_string(desc->parent);
    return 0;
  }
  prof_track_desc copy{};
  std::memcpy(&copy, desc, std::min<size_t>(desc->struct_size, sizeof(copy)));
  copy.struct_size = sizeof(copy);
  if (desc->struct_size <= offsetof(prof_track_desc, clock)) copy.clock = PROF_CLOCK_SESSION;
  copy.flags &= PROF_TRACK_SHARED; // bits of a later minor mean nothing here
  if (copy.kind == PROF_TRACK_PROCESS || copy.kind == PROF_TRACK_THREAD)
    copy.flags = 0;
  else if ((copy.flags & PROF_TRACK_SHARED) != 0)
    copy.pid = 0; // every process's: no owner
  if (merge == Merge::Never) {
    const prof_track_id id = add_locked(copy);
    if (copy.kind == PROF_TRACK_PROCESS || copy.kind == PROF_TRACK_THREAD)
      process_threads_.emplace(std::make_tuple(static_cast<int>(copy.kind), copy.pid,
                                               copy.kind == PROF_TRACK_THREAD ? copy.tid : 0),
                               id);
    return id;
  }
  if (copy.kind == PROF_TRACK_PROCESS || copy.kind == PROF_TRACK_THREAD) {
    auto key = std::make_tuple(static_cast<int>(copy.kind), copy.pid,
                               copy.kind == PROF_TRACK_THREAD ? copy.tid : 0);
    if (auto it = process_threads_.find(key); it != process_threads_.end()) {
      if (renaming) rename_locked(it->second, copy.name);
      return it->second;
    }
    prof_track_id id = add_locked(copy);
    process_threads_.emplace(key, id);
    return id;
  }
  if (copy.kind == PROF_TRACK_DEVICE || copy.kind == PROF_TRACK_CLUSTER ||
      copy.kind == PROF_TRACK_ENGINE) {
    // One per owner: each process's stream is its own track.
    auto key = std::make_tuple(static_cast<int>(copy.kind), copy.parent, copy.index, copy.clock,
                               std::string(copy.name), copy.pid, copy.flags);
    if (auto it = device_parts_.find(key); it != device_parts_.end()) return it->second;
    prof_track_id id = add_locked(copy);
    device_parts_.emplace(std::move(key), id);
    return id;
  }
  return add_locked(copy);
}

void TrackTable::rename_locked(prof_track_id id, const char *name) {
  const auto latest = latest_rename_.find(id);
  const std::string &current =
      latest != latest_rename_.end() ? renames_[latest->second].second : entries_[id].name;
  if (current == name) return;
  latest_rename_[id] = renames_.size();
  renames_.emplace_back(id, name);
  auto &[desc, text] = renamed_descs_.emplace_back(entries_[id].desc, name);
  desc.name = text.c_str();
  entries_[id].renamed.store(&desc, std::memory_order_release);
  renames_published_.store(renames_.size(), std::memory_order_release);
}

std::vector<std::pair<prof_track_id, std::string>> TrackTable::renames_between(size_t from,
                                                                               size_t to) const {
  std::lock_guard lock(mutex_);
  to = std::min(to, renames_.size());
  if (from >= to) return {};
  return {renames_.begin() + static_cast<std::ptrdiff_t>(from),
          renames_.begin() + static_cast<std::ptrdiff_t>(to)};
}

prof_track_id TrackTable::restore(prof_track_id id, const prof_track_desc &desc) {
  std::lock_guard lock(mutex_);
  while (entries_.size() < id)
    entries_.emplace_back(); // gaps stay unnamed
  if (entries_.size() != id) return 0;
  return add_locked(desc);
}

prof_track_id TrackTable::add_locked(const prof_track_desc &desc) {
  auto id = static_cast<prof_track_id>(entries_.size());
  TrackEntry &entry = entries_.emplace_back();
  entry.desc = desc;
  entry.name = desc.name ? desc.name : "";
  entry.unit = desc.unit ? desc.unit : "";
  entry.name_id = strings_.intern(entry.name);
  entry.desc.name = entry.name.c_str();
  entry.desc.unit = desc.unit ? entry.unit.c_str() : nullptr;
  if (desc.kind == PROF_TRACK_PROCESS) processes_.emplace(desc.pid, id);
  published_.store(entries_.size(), std::memory_order_release);
  return id;
}

std::vector<prof_track_id> TrackTable::processes(int32_t pid) const {
  std::lock_guard lock(mutex_);
  std::vector<prof_track_id> found;
  for (auto [at, end] = processes_.equal_range(pid); at != end; ++at)
    found.push_back(at->second);
  return found;
}

const prof_track_desc *TrackTable::current(prof_track_id id) const {
  const TrackEntry *entry = find(id);
  if (entry == nullptr) return nullptr;
  const prof_track_desc *renamed = entry->renamed.load(std::memory_order_acquire);
  return renamed != nullptr ? renamed : &entry->desc;
}

const TrackEntry *TrackTable::find(prof_track_id id) const {
  if (id == 0 || id >= size()) return nullptr;
  const TrackEntry &entry = entries_[id];
  return entry.desc.kind == 0 ? nullptr : &entry; // a gap left by restore()
}

std::string TrackTable::last_error() const {
  std::lock_guard lock(mutex_);
  return last_error_;
}

} // namespace prof::core
