#include "overlap_report.hpp"

#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace prof::stats {
namespace {

/// Which process each device works for, where no process owns the work on
/// it (see process_busy()): the process of the same merged input (the same
/// merge label), or, when one process communicates, that one.
std::map<prof_track_id, prof_track_id> device_processes(StatsAggregator &aggregator,
                                                        const ExportHost &host) {
  const auto name_of = [&host](prof_track_id track) {
    const prof_track_desc *desc = host.track(track);
    return std::string_view(desc && desc->name ? desc->name : "");
  };
  std::vector<prof_track_id> processes;
  for (const auto &[process, timeline] : aggregator.communication_time())
    if (process != 0) processes.push_back(process);
  std::set<prof_track_id> owned; // devices whose work names its processes
  for (const auto &[key, timeline] : aggregator.process_busy())
    owned.insert(key.device);
  std::map<prof_track_id, prof_track_id> out;
  for (const auto &[device, timeline] : aggregator.timelines()) {
    if (device == 0 || owned.contains(device)) continue;
    prof_track_id match = processes.size() == 1 ? processes.front() : 0;
    const std::string_view label = merge_label(name_of(device));
    for (const prof_track_id process : processes)
      if (!label.empty() && merge_label(name_of(process)) == label) match = process;
    out[device] = match;
  }
  return out;
}

/// How much of each of a series of periods, taken in time order, lies
/// inside `within` (sorted, disjoint): a cursor that only moves forward, so a
/// whole series costs one pass over both.
class OverlapCursor {
public:
  explicit OverlapCursor(const std::vector<Period> &within) : within_(within) {}
  uint64_t overlap(const Period &p) {
    while (next_ < within_.size() && within_[next_].end <= p.begin)
      ++next_;
    uint64_t total = 0;
    for (size_t j = next_; j < within_.size() && within_[j].begin < p.end; ++j)
      total += std::min(p.end, within_[j].end) - std::max(p.begin, within_[j].begin);
    return total;
  }

private:
  const std::vector<Period> &within_;
  size_t next_ = 0;
};

/// How much of `communication`'s time lies inside `compute`'s.
uint64_t overlapped_time(BusyTimeline &communication, BusyTimeline &compute) {
  OverlapCursor computing(compute.periods());
  uint64_t total = 0;
  for (const Period &p : communication.periods())
    total += computing.overlap(p);
  return total;
}

/// Idle gaps of a device shorter than this are launch gaps (HTA's kernel wait).
constexpr uint64_t kLaunchGapNs = 10'000;

} // namespace

/// Per process: time in communication calls and in communication on its
/// devices, and the share of each its devices computed through.
StatsTable overlap_report(StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"overlap", "", {}, {}, "", {}};
  table.columns = {{"Process", "Process", Align::Left},
                   {"Communication", "Communication(ns)", Align::Right},
                   {"Overlapped", "Overlapped(ns)", Align::Right},
                   {"Overlap", "Overlap(%)", Align::Right},
                   {"DeviceCommunication", "DeviceCommunication(ns)", Align::Right},
                   {"DeviceOverlapped", "DeviceOverlapped(ns)", Align::Right},
                   {"DeviceOverlap", "DeviceOverlap(%)", Align::Right},
                   {"Devices", "Devices", Align::Right}};
  table.empty_text = "======== Overlap: no communication in this report";
  std::map<prof_track_id, std::set<prof_track_id>> devices_of;
  // Per process: when its devices computed, and when they communicated.
  std::map<prof_track_id, BusyTimeline> computes, device_communications;
  const auto add = [&](BusyTimeline &into, const BusyTimeline &timeline) {
    BusyTimeline copy = timeline;
    into.merge(copy);
  };
  for (const auto &[device, process] : device_processes(aggregator, host))
    if (process != 0) {
      devices_of[process].insert(device);
      add(computes[process], aggregator.compute()[device]);
      add(device_communications[process], aggregator.device_communication()[device]);
    }
  // On a device that processes share, a process's own work only.
  for (const auto &[key, timeline] : aggregator.process_compute()) {
    devices_of[key.process].insert(key.device);
    add(computes[key.process], timeline);
  }
  for (const auto &[key, timeline] : aggregator.process_device_communication()) {
    devices_of[key.process].insert(key.device);
    add(device_communications[key.process], timeline);
  }
  std::set<prof_track_id> processes;
  for (auto &[process, timeline] : aggregator.communication_time())
    if (process != 0) processes.insert(process);
  for (auto &[process, timeline] : device_communications)
    if (timeline.busy() != 0) processes.insert(process);
  // A process's communication and the share of it its devices computed
  // through; "-" when it had none of that kind.
  const auto figures = [&](std::vector<Cell> &cells, BusyTimeline *communication,
                           BusyTimeline &compute) {
    if (communication == nullptr) {
      for (int i = 0; i < 3; ++i)
        cells.push_back(Cell::of_text("-", ""));
      return;
    }
    const uint64_t total = communication->busy();
    const uint64_t overlapped = overlapped_time(*communication, compute);
    cells.push_back(Cell::of_ns(total));
    cells.push_back(Cell::of_ns(overlapped));
    cells.push_back(Cell::of_percent(overlapped, total));
  };
  std::vector<std::pair<std::string, std::vector<Cell>>> rows;
  for (const prof_track_id process : processes) {
    BusyTimeline &compute = computes[process];
    auto calls = aggregator.communication_time().find(process);
    auto on_devices = device_communications.find(process);
    const std::string label = process_label(host, process);
    std::vector<Cell> cells{Cell::of_text(label)};
    figures(cells, calls != aggregator.communication_time().end() ? &calls->second : nullptr,
            compute);
    figures(cells,
            on_devices != device_communications.end() && on_devices->second.busy() != 0
                ? &on_devices->second
                : nullptr,
            compute);
    cells.push_back(Cell::of_count(devices_of[process].size()));
    rows.push_back({label, std::move(cells)});
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  if (rows.empty()) return table;
  Section section{"", "======== Overlap of communication with device compute:", {}};
  for (auto &[label, cells] : rows)
    section.rows.push_back(std::move(cells));
  table.sections.push_back(std::move(section));
  table.notes.push_back("Communication: time in the process's communication calls on the host "
                        "(MPI, collective libraries); overlapped: of it, time while the "
                        "process's devices ran kernels");
  table.notes.push_back("Device communication: time the process's devices ran communication work "
                        "(collective kernels); device overlapped: of it, time while they ran "
                        "compute kernels; device overlap: the share, as HTA's comm/comp overlap");
  table.notes.push_back("A process's devices: those of its own input in a merged report; on a "
                        "device processes share, its own work only");
  return table;
}

/// Per device: idle time within its busy span, and what it waited for.
StatsTable idle_report(StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"idle", "", {}, {}, "", {}};
  table.columns = {{"Device", "Device", Align::Left},
                   {"Process", "Process", Align::Left},
                   {"Span", "Span(ns)", Align::Right},
                   {"Idle", "Idle(ns)", Align::Right},
                   {"Communication", "Communication(ns)", Align::Right},
                   {"Launch", "LaunchGaps(ns)", Align::Right},
                   {"Host", "Host(ns)", Align::Right}};
  table.empty_text = "======== Idle: no device work in this report";
  std::vector<std::pair<std::string, std::vector<Cell>>> rows;
  // Each device's work, or on a device processes share each owner's.
  std::vector<std::tuple<prof_track_id, prof_track_id, BusyTimeline *>> work;
  for (const auto &[device, process] : device_processes(aggregator, host))
    work.emplace_back(device, process, &aggregator.timelines()[device]);
  for (auto &[key, timeline] : aggregator.process_busy())
    work.emplace_back(key.device, key.process, &timeline);
  for (const auto &[device, process, timeline] : work) {
    const std::vector<Period> &busy = timeline->periods();
    if (busy.empty()) continue;
    std::vector<Period> gaps;
    for (size_t i = 1; i < busy.size(); ++i)
      gaps.push_back({busy[i - 1].end, busy[i].begin});
    const std::vector<Period> no_calls;
    auto found = aggregator.communication_time().find(process);
    const std::vector<Period> &calls =
        process != 0 && found != aggregator.communication_time().end() ? found->second.periods()
                                                                       : no_calls;
    uint64_t idle = 0, communication = 0, launch = 0, host_bound = 0;
    OverlapCursor in_communication(calls);
    for (const Period &gap : gaps) {
      const uint64_t length = gap.end - gap.begin;
      const uint64_t in_calls = in_communication.overlap(gap);
      idle += length;
      communication += in_calls;
      (length < kLaunchGapNs ? launch : host_bound) += length - in_calls;
    }
    const prof_track_desc *desc = host.track(device);
    const std::string name = desc && desc->name ? desc->name : "device";
    rows.push_back({name + " " + process_label(host, process),
                    {Cell::of_text(name),
                     process ? Cell::of_text(process_label(host, process)) : Cell::of_text("-", ""),
                     Cell::of_ns(busy.back().end - busy.front().begin), Cell::of_ns(idle),
                     Cell::of_ns(communication), Cell::of_ns(launch), Cell::of_ns(host_bound)}});
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  if (rows.empty()) return table;
  Section section{"", "======== Device idle time:", {}};
  for (auto &[name, cells] : rows)
    section.rows.push_back(std::move(cells));
  table.sections.push_back(std::move(section));
  table.notes.push_back("Communication: idle while the device's process was in communication "
                        "calls; launch gaps: other gaps under 10us between its work; host: the "
                        "rest, the device waiting for work; on a device processes share, a row "
                        "per process, of its own work");
  return table;
}

} // namespace prof::stats
