#include "chrome_track_map.hpp"

#include <prof/json_text.hpp>

namespace prof::chrome_json {

namespace {
constexpr int kMaxDepth = 64; // guards against a parent cycle in a corrupt report
}

const ChromePlace &ChromeTrackMap::use(prof_track_id track) { return use(track, 0); }

const ChromePlace &ChromeTrackMap::use(prof_track_id track, int depth) {
  auto found = places_.find(track);
  if (found != places_.end()) return found->second;
  ChromePlace place = resolve(track, depth);
  return places_.emplace(track, std::move(place)).first->second;
}

ChromePlace ChromeTrackMap::resolve(prof_track_id track, int depth) {
  const prof_track_desc *desc = track == 0 ? nullptr : host_.track(track);
  ChromePlace place;
  if (desc == nullptr || depth > kMaxDepth) {
    place.pid = kOrphanPid;
    name_process(kOrphanPid, "prof", kOrphanPid);
    return place;
  }
  const std::string_view name = desc->name != nullptr ? desc->name : "";
  // The parent's place, resolved (and named) first; by value, since use()
  // may rehash places_.
  auto parent = [&]() -> ChromePlace { return use(desc->parent, depth + 1); };
  switch (desc->kind) {
  case PROF_TRACK_PROCESS:
    place.pid = desc->pid != 0 ? desc->pid : kOtherPidBase + track;
    name_process(place.pid, name, ++process_order_);
    names_written_[track] = std::string(name);
    return place;
  case PROF_TRACK_THREAD: {
    // The parent process is resolved even when the thread has its own pid,
    // so the process is named before the thread.
    const int64_t parent_pid = desc->parent != 0 ? parent().pid : kOtherPidBase + track;
    place.pid = desc->pid != 0 ? desc->pid : parent_pid;
    place.tid = desc->tid != 0 ? desc->tid : kSyntheticTidBase + track;
    name_thread(place.pid, place.tid, name, desc->tid == desc->pid ? 0 : ++thread_order_);
    names_written_[track] = std::string(name);
    return place;
  }
  case PROF_TRACK_COUNTER:
    place.counter = true;
    place.label = std::string(name);
    if (desc->parent != 0) {
      place.pid = parent().pid;
    } else {
      place.pid = kCountersPid;
      name_process(kCountersPid, "counters", kCountersPid);
    }
    return place;
  default:
    break;
  }
  if (desc->parent == 0) {
    if (desc->kind == PROF_TRACK_DEVICE && desc->index >= 0) {
      place.pid = kDevicePidBase + desc->index;
      name_process(place.pid,
                   name.empty() ? "GCU " + std::to_string(desc->index) : std::string(name),
                   place.pid);
    } else {
      place.pid = kOtherPidBase + track;
      name_process(place.pid, name, place.pid);
    }
    return place;
  }
  const ChromePlace above = parent();
  place.pid = above.pid;
  place.tid = kSyntheticTidBase + track;
  place.synthetic = true;
  place.label = above.synthetic ? above.label + " / " + std::string(name) : std::string(name);
  name_thread(place.pid, place.tid, place.label, kSyntheticTidBase + track);
  return place;
}

void ChromeTrackMap::refresh_names() {
  for (auto &[track, written] : names_written_) {
    const prof_track_desc *desc = host_.track(track);
    if (desc == nullptr || desc->name == nullptr || written == desc->name) continue;
    written = desc->name;
    const ChromePlace &place = places_.at(track);
    if (desc->kind == PROF_TRACK_PROCESS)
      metadata(place.pid, 0, "process_name", "name", written, 0);
    else
      metadata(place.pid, place.tid, "thread_name", "name", written, 0);
  }
}

void ChromeTrackMap::name_process(int64_t pid, std::string_view name, int64_t sort_index) {
  if (!named_processes_.insert(pid).second) return;
  metadata(pid, 0, "process_name", "name", name, 0);
  metadata(pid, 0, "process_sort_index", "sort_index", {}, sort_index);
}

void ChromeTrackMap::name_thread(int64_t pid, int64_t tid, std::string_view name,
                                 int64_t sort_index) {
  if (!named_threads_.insert({pid, tid}).second) return;
  metadata(pid, tid, "thread_name", "name", name, 0);
  metadata(pid, tid, "thread_sort_index", "sort_index", {}, sort_index);
}

void ChromeTrackMap::metadata(int64_t pid, int64_t tid, const char *what, const char *key,
                              std::string_view text, int64_t number) {
  std::string record = "{\"ph\":\"M\",\"name\":\"";
  record += what;
  record += "\",\"pid\":";
  append_int(record, pid);
  record += ",\"tid\":";
  append_int(record, tid);
  record += ",\"args\":{\"";
  record += key;
  record += "\":";
  if (std::string_view(key) == "name")
    append_json_string(record, text);
  else
    append_int(record, number);
  record += "}}";
  emit_(record);
}

} // namespace prof::chrome_json
