// Rules over each device's busy timeline and memory: Nsight's GPU gaps and
// GPU time utilization rules, and a memory peak close to the device's size.
#include "findings_rules.hpp"

#include <prof/stats/activity_rows.hpp>
#include <prof/stats/natural_order.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <cstdio>

namespace prof::stats {
namespace {

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", value);
  return text;
}

std::string period_text(const RuleContext &context, uint64_t begin, uint64_t end) {
  const uint64_t origin = report_time_origin(context.aggregator, context.host);
  const auto since = [origin](uint64_t t) { return format_duration(t - std::min(origin, t)); };
  return since(begin) + " to " + since(end);
}

/// Idle gaps longer than gap-ms between a device's work (nsys gpu_gaps).
void gaps_rule(RuleContext &context, const std::string &label, BusyTimeline &timeline) {
  std::vector<Period> gaps = timeline.gaps(context.limits.ms("gap-ms"));
  if (gaps.empty()) return;
  uint64_t idle = 0;
  for (const Period &gap : gaps)
    idle += gap.end - gap.begin;
  std::stable_sort(gaps.begin(), gaps.end(), [](const Period &a, const Period &b) {
    return a.end - a.begin > b.end - b.begin;
  });
  std::vector<std::string> evidence;
  for (size_t i = 0; i < gaps.size() && i < 3; ++i)
    evidence.push_back("idle " + format_duration(gaps[i].end - gaps[i].begin) + ", " +
                       period_text(context, gaps[i].begin, gaps[i].end));
  context.add({"device-gaps", Severity::Low,
               label + " was idle " + count_of(gaps.size(), "time", "times") + " for more than " +
                   format_duration(context.limits.ms("gap-ms")) + " between its work",
               idle, std::move(evidence),
               "see what the host did meanwhile (the cpu-functions, osrt and ranges reports over "
               "those times): data loading, checkpoints or preprocessing that could overlap the "
               "device's work (prefetching, asynchronous loading)"});
}

/// Chunks of a device's busy span in which it was busy less than
/// util-percent, consecutive ones joined (nsys gpu_time_util).
void utilization_rule(RuleContext &context, const std::string &label, BusyTimeline &timeline) {
  const std::vector<Period> &periods = timeline.periods();
  if (periods.empty()) return;
  const uint64_t begin = periods.front().begin, end = periods.back().end;
  const auto chunks = static_cast<uint64_t>(std::max(1.0, context.limits["util-chunks"]));
  const uint64_t interval = std::max<uint64_t>(1, (end - begin + chunks - 1) / chunks);
  const double threshold = context.limits["util-percent"];
  struct Region {
    uint64_t begin, end, busy;
  };
  std::vector<Region> low;
  uint64_t low_chunks = 0;
  bool joined = false;
  for (const WindowBusy &w : timeline.utilization(begin, end, interval)) {
    if (w.end <= w.begin) continue;
    const double busy = 100.0 * static_cast<double>(w.busy) / static_cast<double>(w.end - w.begin);
    if (busy >= threshold) {
      joined = false;
      continue;
    }
    ++low_chunks;
    if (joined) {
      low.back().end = w.end;
      low.back().busy += w.busy;
    } else {
      low.push_back({w.begin, w.end, w.busy});
    }
    joined = true;
  }
  if (low.empty()) return;
  uint64_t idle = 0;
  for (const Region &r : low)
    idle += (r.end - r.begin) - r.busy;
  std::stable_sort(low.begin(), low.end(), [](const Region &a, const Region &b) {
    return (a.end - a.begin) - a.busy > (b.end - b.begin) - b.busy;
  });
  std::vector<std::string> evidence;
  for (size_t i = 0; i < low.size() && i < 3; ++i)
    evidence.push_back(period_text(context, low[i].begin, low[i].end) + ": " +
                       percent(100.0 * static_cast<double>(low[i].busy) /
                               static_cast<double>(low[i].end - low[i].begin)) +
                       " busy");
  evidence.push_back(
      "busy " +
      percent(100.0 * static_cast<double>(timeline.busy()) / static_cast<double>(end - begin)) +
      " of its span overall");
  context.add({"low-utilization", Severity::Low,
               label + " was busy less than " + percent(threshold) + " in " +
                   std::to_string(low_chunks) + " of " + std::to_string(chunks) +
                   " parts of its busy span",
               idle, std::move(evidence),
               "keep the device fed: larger batches, more work in flight (several streams, "
               "asynchronous copies), and host work moved off the launching thread"});
}

/// The DEVICE track at or above `track`, 0 if none.
prof_track_id device_of(const ExportHost &host, prof_track_id track) {
  for (int depth = 0; track != 0 && depth < 64; ++depth) {
    const prof_track_desc *desc = host.track(track);
    if (desc == nullptr) return 0;
    if (desc->kind == PROF_TRACK_DEVICE) return track;
    track = desc->parent;
  }
  return 0;
}

/// A device's peak memory use ("Memory used" counter) against its size
/// ("Memory total" counter), both under its track (event.h).
void memory_rule(RuleContext &context) {
  std::map<prof_track_id, double> used, total;
  for (const auto &[track, stats] : context.aggregator.summary().counters()) {
    const prof_track_desc *desc = context.host.track(track);
    if (desc == nullptr || desc->name == nullptr) continue;
    const std::string_view name = desc->name;
    if (name != PROF_MEMORY_USED_TRACK && name != PROF_MEMORY_TOTAL_TRACK) continue;
    const prof_track_id device = device_of(context.host, track);
    if (device == 0) continue;
    double &value = (name == PROF_MEMORY_USED_TRACK ? used : total)[device];
    value = std::max(value, stats.max);
  }
  bool sized = false;
  for (const auto &[device, peak] : used) {
    auto size = total.find(device);
    if (size == total.end() || size->second <= 0) continue;
    sized = true;
    const double share = 100.0 * peak / size->second;
    if (share < context.limits["memory-peak-percent"]) continue;
    context.findings.push_back(
        {"memory-peak",
         share >= 98 ? Severity::High : Severity::Medium,
         device_label(context.host, device) + " reached " + percent(share) +
             " of its memory: close to running out",
         0,
         {"peak " + format_bytes(peak) + " of " + format_bytes(size->second),
          "the device-memory report lists the blocks live at the peak"},
         "free what is no longer needed before the peak (activations, caches), use smaller "
         "batches, activation checkpointing, or lower precision"});
  }
  if (!used.empty() && !sized)
    context.missing_inputs.push_back(
        "memory-peak: no device in this report states its memory size (a \"Memory total\" "
        "counter under the device); its sources do not say");
}

} // namespace

void device_rules(RuleContext &context) {
  auto &timelines = context.aggregator.timelines();
  std::vector<std::pair<std::string, prof_track_id>> devices;
  for (const auto &[device, timeline] : timelines)
    devices.emplace_back(device_label(context.host, device), device);
  std::sort(devices.begin(), devices.end(),
            [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  for (const auto &[label, device] : devices) {
    gaps_rule(context, label, timelines.at(device));
    utilization_rule(context, label, timelines.at(device));
  }
  memory_rule(context);
}

} // namespace prof::stats
