#include <prof/stats/launch_log.hpp>

#include <prof/event.hpp>

#include <utility>

namespace prof::stats {
namespace {

/// Work a call launches: kernels, copies and sets.
bool is_launched_work(uint16_t kind) {
  return kind == PROF_CATEGORY_KERNEL || kind == PROF_CATEGORY_MEMSET || is_memcpy(kind);
}

} // namespace

bool LaunchLog::is_pageable(prof_string_id value) {
  if (auto known = pageable_.find(value); known != pageable_.end()) return known->second;
  return pageable_.emplace(value, host_.string(value) == "pageable").first->second;
}

HostMemory LaunchLog::host_memory(const prof_event &slice) {
  HostMemory memory = HostMemory::Unknown;
  for (auto [key, cache] : {std::pair{"src_kind", &src_keys_}, std::pair{"dst_kind", &dst_keys_}}) {
    const prof_arg *a = arg_named(host_, slice, key, *cache);
    if (a == nullptr || a->type != PROF_ARG_STRING) continue;
    if (is_pageable(a->value.s)) return HostMemory::Pageable;
    memory = HostMemory::Other;
  }
  return memory;
}

void LaunchLog::add(const prof_event &e, bool device_side, prof_track_id device) {
  if (e.type != PROF_EVENT_SLICE) return;
  if (is_api_call(e.kind) && !device_side && e.id != 0) {
    if (calls_.size() < kMaxKept)
      calls_.push_back({e.id, e.ts, e.duration, e.name, e.track});
    else
      ++left_out_;
    return;
  }
  const bool wait = e.kind == PROF_CATEGORY_SYNC && (e.id != 0 || !device_side);
  if (!wait && !(device_side && e.id != 0 && is_launched_work(e.kind))) return;
  if (work_.size() >= kMaxKept) {
    ++left_out_;
    return;
  }
  LaunchWork work{e.id,   e.ts,   e.duration,          e.name,
                  device, e.kind, HostMemory::Unknown, !device_side};
  if (is_memcpy(e.kind)) work.memory = host_memory(e);
  work_.push_back(work);
}

void LaunchLog::merge(LaunchLog &other) {
  calls_.insert(calls_.end(), other.calls_.begin(), other.calls_.end());
  work_.insert(work_.end(), other.work_.begin(), other.work_.end());
  left_out_ += other.left_out_;
}

std::vector<Launch> LaunchLog::launches() const {
  std::unordered_map<uint64_t, const LaunchCall *> by_id;
  by_id.reserve(calls_.size());
  for (const LaunchCall &call : calls_)
    by_id.emplace(call.correlation, &call);
  std::vector<Launch> out;
  for (const LaunchWork &work : work_)
    if (auto call = by_id.find(work.correlation); work.correlation != 0 && call != by_id.end())
      out.push_back({call->second, &work});
  return out;
}

} // namespace prof::stats
