#include "step_report.hpp"

#include "critical_path_report.hpp"

#include <prof/stats/step_times.hpp>

#include <algorithm>
#include <map>

namespace prof::stats {

StatsTable step_report(const StatsAggregator &aggregator, const ExportHost &host,
                       const std::vector<CriticalPath> *paths) {
  StatsTable table{"steps",
                   "",
                   {{"Step", "Step", Align::Right},
                    {"Ranks", "Ranks", Align::Right},
                    {"Min", "Min(ns)", Align::Right},
                    {"Avg", "Avg(ns)", Align::Right},
                    {"Max", "Max(ns)", Align::Right},
                    {"Spread", "Spread(ns)", Align::Right},
                    {"Slowest", "Slowest", Align::Left}},
                   {},
                   "======== Steps: none in this report",
                   {}};
  const StepTimes times = step_times(aggregator, host);
  if (times.steps.empty()) return table;
  Section across{"", "======== Steps across ranks:", {}};
  Section per_rank{"",
                   "======== Steps per rank:",
                   {},
                   {{"Step", "Step", Align::Right},
                    {"Process", "Process", Align::Left},
                    {"Time", "Time(ns)", Align::Right},
                    {"Slower(%)", "Slower(%)", Align::Right}}};
  std::vector<uint64_t> times_slowest(times.ranks.size(), 0);
  std::map<uint64_t, uint64_t> longest; // step -> its longest time on a rank
  for (const StepTimes::Step &step : times.steps) {
    uint64_t min = UINT64_MAX, max = 0, total = 0;
    size_t slowest = step.times.front().first;
    for (const auto &[rank, ns] : step.times) {
      min = std::min(min, ns);
      total += ns;
      if (ns > max) {
        max = ns;
        slowest = rank;
      }
    }
    const uint64_t ranks = step.times.size();
    longest[step.number] = max;
    ++times_slowest[slowest];
    across.rows.push_back({Cell::of_count(step.number), Cell::of_count(ranks), Cell::of_ns(min),
                           Cell::of_ns((total + ranks / 2) / ranks), Cell::of_ns(max),
                           Cell::of_ns(max - min), Cell::of_text(times.ranks[slowest])});
    for (const auto &[rank, ns] : step.times)
      per_rank.rows.push_back({Cell::of_count(step.number), Cell::of_text(times.ranks[rank]),
                               Cell::of_ns(ns), Cell::of_percent(ns - min, min)});
  }
  table.sections.push_back(std::move(across));
  table.sections.push_back(std::move(per_rank));
  if (times.ranks.size() > 1) {
    const size_t most = static_cast<size_t>(
        std::max_element(times_slowest.begin(), times_slowest.end()) - times_slowest.begin());
    table.notes.push_back(times.ranks[most] + " was the slowest rank in " +
                          std::to_string(times_slowest[most]) + " of " +
                          std::to_string(times.steps.size()) + " steps");
  }
  if (paths != nullptr && longest.size() > 1) {
    std::vector<uint64_t> sorted;
    for (const auto &[number, ns] : longest)
      sorted.push_back(ns);
    std::sort(sorted.begin(), sorted.end());
    const uint64_t median = sorted[sorted.size() / 2];
    for (const CriticalPath &path : *paths)
      if (const auto found = longest.find(path.step);
          found != longest.end() && found->second * 5 > median * 6)
        table.notes.push_back(critical_path_line(path, host));
  }
  table.notes.push_back(
      "a step's time on a rank (process): from the earliest begin of its annotation slices with "
      "that \"step\" argument to their latest end; Spread: Max - Min; Slower(%): how much longer "
      "than the step's fastest rank");
  return table;
}

} // namespace prof::stats
