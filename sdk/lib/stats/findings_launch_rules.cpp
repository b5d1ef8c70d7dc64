// Rules over launches (a host call and the device work or wait that names
// it by correlation id): Nsight's synchronous-copy, synchronous-memset,
// pageable-copy and synchronizing-API rules, and HTA's launch statistics.
#include "findings_rules.hpp"

#include <prof/event.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace prof::stats {
namespace {

std::string text(const RuleContext &context, prof_string_id id) {
  return std::string(context.host.string(id));
}

/// Whether `call` waited for `work`: it returned after the work ended, or
/// (a device clock a little off the host's) it ran when the work began and
/// lasted at least as long.
bool waited_for(const LaunchCall &call, const LaunchWork &work) {
  return call.end() >= work.end() ||
         (call.ts <= work.ts && work.ts < call.end() && call.duration >= work.duration);
}

/// Calls of copies (or sets) that returned only after their work had
/// finished: the host waited for the device. A call counts once, however
/// many pieces its work came in.
void synchronous_rule(RuleContext &context, const std::vector<Launch> &launches, bool sets) {
  NameTally tally;
  uint64_t cost = 0, count = 0;
  const Launch *longest = nullptr;
  std::set<const LaunchCall *> counted;
  for (const Launch &launch : launches) {
    const uint16_t kind = launch.work->kind;
    if (launch.work->host_side || (sets ? kind != PROF_CATEGORY_MEMSET : !is_memcpy(kind)))
      continue;
    if (!waited_for(*launch.call, *launch.work) || !counted.insert(launch.call).second) continue;
    ++count;
    cost += launch.call->duration;
    tally.add(text(context, launch.work->name) + " by " + text(context, launch.call->name),
              launch.call->duration);
    if (longest == nullptr || launch.call->duration > longest->call->duration) longest = &launch;
  }
  if (count == 0) return;
  std::vector<std::string> evidence = tally.top(3);
  evidence.push_back("longest: " + text(context, longest->call->name) + " " +
                     format_duration(longest->call->duration) + " " +
                     at_time(context, longest->call->ts));
  const char *noun = sets ? "memory sets" : "memory copies";
  context.add({sets ? "sync-memset" : "sync-copy", Severity::Low,
               count_of(count, sets ? "memory set" : "memory copy", noun) +
                   (count == 1 ? " was" : " were") +
                   " synchronous: the host call returned only after the device had done the "
                   "work",
               cost, std::move(evidence),
               sets ? "use the asynchronous set on a stream (the runtime's *Async call) so the "
                      "host goes on while the device sets memory"
                    : "use asynchronous copies on a stream from pinned (page-locked) host "
                      "memory, so the host and the device work on while data moves"});
}

/// Copies from or to pageable host memory: the runtime stages them through a
/// pinned buffer, and an asynchronous one blocks the host all the same.
void pageable_rule(RuleContext &context, const std::vector<Launch> &launches) {
  const LaunchLog &log = context.aggregator.launches();
  std::set<const LaunchWork *> asynchronous;
  for (const Launch &launch : launches)
    if (!waited_for(*launch.call, *launch.work)) asynchronous.insert(launch.work);
  NameTally tally;
  uint64_t copies = 0, named = 0, pageable = 0, async_pageable = 0, cost = 0;
  for (const LaunchWork &work : log.work()) {
    if (work.host_side || !is_memcpy(work.kind)) continue;
    ++copies;
    named += work.memory != HostMemory::Unknown;
    if (work.memory != HostMemory::Pageable) continue;
    ++pageable;
    async_pageable += asynchronous.contains(&work);
    cost += work.duration;
    tally.add(text(context, work.name), work.duration);
  }
  if (copies > 0 && named == 0)
    context.missing_inputs.push_back(
        "pageable-copy: no copy names its host memory (\"src_kind\"/\"dst_kind\" arguments); "
        "this report's sources do not say");
  if (pageable == 0) return;
  std::vector<std::string> evidence = tally.top(3);
  evidence.push_back(count_of(async_pageable, "was", "were") + " issued asynchronously");
  context.add({"pageable-copy", Severity::Low,
               count_of(pageable, "memory copy", "memory copies") +
                   " read or wrote pageable host memory: staged through a pinned buffer, and "
                   "synchronous for the host even when issued asynchronously",
               cost, std::move(evidence),
               "allocate the host buffers pinned (page-locked: the runtime's host allocation "
               "call), or register existing ones"});
}

/// Waits: slices of the sync category on the host, or inside the host call
/// they name (the call blocked for them).
void sync_api_rule(RuleContext &context) {
  const LaunchLog &log = context.aggregator.launches();
  std::unordered_map<uint64_t, const LaunchCall *> calls;
  for (const LaunchCall &call : log.calls())
    calls.emplace(call.correlation, &call);
  std::set<const LaunchCall *> counted;
  NameTally tally;
  uint64_t waits = 0, cost = 0;
  uint64_t longest = 0, longest_ts = 0;
  std::string longest_name;
  const auto add = [&](const std::string &name, uint64_t ts, uint64_t duration) {
    ++waits;
    cost += duration;
    tally.add(name, duration);
    if (duration > longest) {
      longest = duration;
      longest_ts = ts;
      longest_name = name;
    }
  };
  bool any = false;
  for (const LaunchWork &work : log.work()) {
    if (work.kind != PROF_CATEGORY_SYNC) continue;
    auto found = work.correlation != 0 ? calls.find(work.correlation) : calls.end();
    if (found != calls.end()) {
      const LaunchCall &call = *found->second;
      if (call.ts <= work.ts && work.end() <= call.end()) {
        any = true;
        if (counted.insert(&call).second) add(text(context, call.name), call.ts, call.duration);
        continue;
      }
    }
    if (work.host_side) {
      any = true;
      add(text(context, work.name), work.ts, work.duration);
    }
  }
  if (!any) {
    context.missing_inputs.push_back(
        "sync-api: no host wait was recorded (a slice of the sync category on the host or "
        "inside the call it names); none happened, or this report's sources do not record them");
    return;
  }
  std::vector<std::string> evidence = tally.top(3);
  evidence.push_back("longest: " + longest_name + " " + format_duration(longest) + " " +
                     at_time(context, longest_ts));
  context.add({"sync-api", Severity::Low,
               count_of(waits, "call", "calls") +
                   " blocked the host until the device had finished its work",
               cost, std::move(evidence),
               "wait only where the host needs the results: synchronize on an event of the "
               "work it needs rather than the whole device or stream, and queue more work "
               "before waiting"});
}

/// Kernels that ran shorter than their launch call took: the host cannot
/// launch fast enough to keep the device busy.
void short_work_rule(RuleContext &context, const std::vector<Launch> &launches) {
  uint64_t kernels = 0, short_ones = 0, cost = 0;
  NameTally tally;
  for (const Launch &launch : launches) {
    if (launch.work->kind != PROF_CATEGORY_KERNEL) continue;
    ++kernels;
    if (launch.work->duration >= launch.call->duration) continue;
    ++short_ones;
    cost += launch.call->duration - launch.work->duration;
    tally.add(text(context, launch.work->name), launch.work->duration);
  }
  if (kernels == 0 || 100.0 * static_cast<double>(short_ones) / static_cast<double>(kernels) <
                          context.limits["short-work-percent"])
    return;
  context.add({"short-work", Severity::Low,
               std::to_string(short_ones) + " of " + count_of(kernels, "kernel", "kernels") +
                   " ran shorter on the device than their launch call took on the host: the "
                   "device waits for the host",
               cost, tally.top(3),
               "fuse small kernels, give each launch more work (larger batches), or launch a "
               "recorded sequence with one call (CUDA Graphs or the runtime's equivalent)"});
}

/// Busy ns of `periods` (sorted, disjoint) within [begin, end).
uint64_t busy_within(const std::vector<Period> &periods, uint64_t begin, uint64_t end) {
  auto it = std::upper_bound(periods.begin(), periods.end(), begin,
                             [](uint64_t t, const Period &p) { return t < p.end; });
  uint64_t busy = 0;
  for (; it != periods.end() && it->begin < end; ++it)
    busy += std::min(end, it->end) - std::max(begin, it->begin);
  return busy;
}

/// Work that started long after its call returned while its device sat idle.
void launch_delay_rule(RuleContext &context, const std::vector<Launch> &launches) {
  const uint64_t cutoff = context.limits.us("launch-delay-us");
  auto &timelines = context.aggregator.timelines();
  uint64_t late = 0, cost = 0, worst_idle = 0;
  const Launch *worst = nullptr;
  NameTally tally;
  for (const Launch &launch : launches) {
    const LaunchWork &work = *launch.work;
    if (work.host_side || work.kind == PROF_CATEGORY_SYNC) continue;
    const uint64_t returned = launch.call->end();
    if (work.ts <= returned || work.ts - returned <= cutoff) continue;
    uint64_t idle = work.ts - returned;
    if (auto timeline = timelines.find(work.device); timeline != timelines.end())
      idle -= busy_within(timeline->second.periods(), returned, work.ts);
    ++late;
    cost += idle;
    tally.add(text(context, work.name), idle);
    if (worst == nullptr || idle > worst_idle) {
      worst = &launch;
      worst_idle = idle;
    }
  }
  if (late == 0) return;
  std::vector<std::string> evidence = tally.top(3);
  evidence.push_back("worst: " + text(context, worst->work->name) + " started " +
                     format_duration(worst->work->ts - worst->call->end()) + " after " +
                     text(context, worst->call->name) + " returned, " +
                     at_time(context, worst->work->ts) + ", the device idle " +
                     format_duration(worst_idle) + " of it");
  context.add({"launch-delay", Severity::Low,
               count_of(late, "launch", "launches") + " started more than " +
                   format_duration(cutoff) +
                   " after their call returned; the time counted is their device's idle time "
                   "while they waited",
               cost, std::move(evidence),
               "look for what held the work back: a wait on another stream's event, work queued "
               "on one stream that could run on another, or the runtime's own queue (see the "
               "osrt and api reports)"});
}

} // namespace

void launch_rules(RuleContext &context) {
  const std::vector<Launch> launches = context.aggregator.launches().launches();
  bool device_work = false;
  for (const LaunchWork &work : context.aggregator.launches().work())
    device_work |= !work.host_side && work.kind != PROF_CATEGORY_SYNC;
  if (launches.empty() && (device_work || context.aggregator.device_slices() > 0))
    context.missing_inputs.push_back(
        "sync-copy, sync-memset, short-work, launch-delay: no device work names a host API call "
        "by correlation id (API tracing off, or a source that does not tie them)");
  synchronous_rule(context, launches, false);
  synchronous_rule(context, launches, true);
  pageable_rule(context, launches);
  sync_api_rule(context);
  short_work_rule(context, launches);
  launch_delay_rule(context, launches);
}

} // namespace prof::stats
