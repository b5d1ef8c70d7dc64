#include "read/track_plan.hpp"

#include "read/track_kinds.hpp"

#include <algorithm>
#include <filesystem>

namespace prof::perfetto {
namespace {

constexpr int kMaxDepth = 64; // deeper parent chains are cut (cycles, bad input)

} // namespace

TrackPlan::TrackPlan(const ReadTrace &trace, const Host &host)
    : trace_(trace), host_(host), declared_(trace.tracks.size(), 0),
      visiting_(trace.tracks.size(), false), holds_tracks_(trace.tracks.size(), false) {
  for (size_t i = 0; i < trace.tracks.size(); ++i) {
    const TrackDescription &d = trace.tracks[i];
    if (d.type == TrackType::Process) process_index_.try_emplace(d.pid, i);
    if (d.type != TrackType::Counter && d.parent_uuid != 0)
      if (const auto parent = trace.track_index.find(d.parent_uuid);
          parent != trace.track_index.end())
        holds_tracks_[parent->second] = true;
    if (d.type == TrackType::Thread) thread_index_.emplace(d.tid, i);
  }
}

prof_track_id TrackPlan::add(prof_track_kind kind, const std::string &name, prof_track_id parent,
                             int pid, int tid, int index, const char *unit) {
  const prof_track_id id = host_.track(kind, name, parent, pid, tid, index, unit);
  if (id != 0) kinds_[id] = kind;
  return id;
}

std::string TrackPlan::process_name(const TrackDescription &d) const {
  if (!d.name.empty()) return d.name;
  if (!d.process_name.empty()) return d.process_name;
  if (!d.cmdline.empty() && !d.cmdline.front().empty())
    return std::filesystem::path(d.cmdline.front()).filename().string();
  return "process " + std::to_string(d.pid);
}

prof_track_id TrackPlan::process(int32_t pid, int depth) {
  if (pid <= 0) return 0;
  if (const auto it = process_index_.find(pid); it != process_index_.end())
    return declare(it->second, depth + 1);
  auto [at, added] = stand_in_processes_.try_emplace(pid, 0);
  if (added)
    at->second = add(PROF_TRACK_PROCESS, "process " + std::to_string(pid), 0, pid, 0, -1, nullptr);
  return at->second;
}

prof_track_id TrackPlan::declare(size_t index, int depth) {
  if (declared_[index] != 0) return declared_[index];
  if (visiting_[index] || depth > kMaxDepth) return 0;
  visiting_[index] = true;
  const TrackDescription &d = trace_.tracks[index];
  prof_track_id parent = 0;
  if (d.type != TrackType::Process && d.type != TrackType::Thread && d.parent_uuid != 0)
    if (const auto it = trace_.track_index.find(d.parent_uuid); it != trace_.track_index.end())
      parent = declare(it->second, depth + 1);
  const auto above = kinds_.find(parent);
  const int parent_kind = above != kinds_.end() ? above->second : 0;
  prof_track_id id = 0;
  switch (d.type) {
  case TrackType::Process:
    id = add(PROF_TRACK_PROCESS, process_name(d), 0, d.pid, 0, -1, nullptr);
    break;
  case TrackType::Thread: {
    const prof_track_id process_track = process(d.pid, depth);
    const std::string name = !d.name.empty()          ? d.name
                             : !d.thread_name.empty() ? d.thread_name
                                                      : "thread " + std::to_string(d.tid);
    id = add(PROF_TRACK_THREAD, name, process_track, d.pid, d.tid, -1, nullptr);
    threads_.try_emplace({d.pid, d.tid}, id);
    break;
  }
  case TrackType::Counter:
    id = add(PROF_TRACK_COUNTER, d.name.empty() ? "counter " + std::to_string(d.uuid) : d.name,
             parent, 0, 0, -1, d.unit.empty() ? nullptr : d.unit.c_str());
    break;
  case TrackType::Plain: {
    const std::string name = d.name.empty() ? "track " + std::to_string(d.uuid) : d.name;
    const TrackKind kind = named_track_kind(name, parent_kind, holds_tracks_[index]);
    id = add(kind.kind, name, parent, 0, 0, kind.index, nullptr);
    break;
  }
  }
  visiting_[index] = false;
  return declared_[index] = id;
}

prof_track_id TrackPlan::track(uint64_t uuid) {
  if (const auto it = trace_.track_index.find(uuid); it != trace_.track_index.end())
    if (const prof_track_id id = declare(it->second, 0); id != 0) return id;
  auto [at, added] = undescribed_.try_emplace(uuid, 0);
  if (added)
    at->second = add(PROF_TRACK_CUSTOM, uuid == 0 ? "global" : "track " + std::to_string(uuid), 0,
                     0, 0, -1, nullptr);
  return at->second;
}

prof_track_id TrackPlan::thread(int32_t pid, int32_t tid) {
  if (tid <= 0) return pid > 0 ? process(pid, 0) : track(0);
  if (const auto it = threads_.find({pid, tid}); it != threads_.end()) return it->second;
  // A thread described with that tid (its pid, or the sample's, may be 0).
  for (auto [at, end] = thread_index_.equal_range(tid); at != end; ++at) {
    const TrackDescription &d = trace_.tracks[at->second];
    if (d.pid == pid || pid == 0 || d.pid == 0) {
      const prof_track_id id = declare(at->second, 0);
      threads_[{pid, tid}] = id;
      return id;
    }
  }
  const prof_track_id id = add(PROF_TRACK_THREAD, "thread " + std::to_string(tid), process(pid, 0),
                               pid, tid, -1, nullptr);
  threads_[{pid, tid}] = id;
  return id;
}

/// Whether the trace names the command line of any process: prof's exports
/// name only the profiled one's.
bool any_cmdline(const ReadTrace &trace) {
  return std::any_of(trace.tracks.begin(), trace.tracks.end(), [](const TrackDescription &d) {
    return d.type == TrackType::Process && !d.cmdline.empty();
  });
}

std::vector<int32_t> TrackPlan::pids() const {
  const bool by_cmdline = any_cmdline(trace_);
  std::vector<int32_t> pids;
  for (const TrackDescription &d : trace_.tracks)
    if (d.type == TrackType::Process && d.pid > 0 && (!by_cmdline || !d.cmdline.empty()) &&
        std::find(pids.begin(), pids.end(), d.pid) == pids.end())
      pids.push_back(d.pid);
  return pids;
}

std::string TrackPlan::program() const {
  const bool by_cmdline = any_cmdline(trace_);
  for (const TrackDescription &d : trace_.tracks)
    if (d.type == TrackType::Process && (!by_cmdline || !d.cmdline.empty())) return process_name(d);
  return {};
}

} // namespace prof::perfetto
