#include <prof/stats/step_times.hpp>

#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>

#include <algorithm>
#include <map>

namespace prof::stats {

StepTimes step_times(const StatsAggregator &aggregator, const ExportHost &host) {
  StepTimes times;
  // Labels are made once per process track; processes of one label are one rank.
  std::map<prof_track_id, std::string> labels;
  for (const auto &[key, span] : aggregator.steps())
    if (!labels.count(key.process)) labels.emplace(key.process, process_label(host, key.process));
  std::map<std::string, size_t> rank_of;
  for (const auto &[process, label] : labels)
    rank_of.emplace(label, 0);
  for (const auto &[label, rank] : rank_of)
    times.ranks.push_back(label);
  std::sort(times.ranks.begin(), times.ranks.end(), natural_less);
  for (size_t i = 0; i < times.ranks.size(); ++i)
    rank_of[times.ranks[i]] = i;

  std::map<uint64_t, std::map<size_t, ThreadSpan>> spans; // step -> rank -> span
  for (const auto &[key, span] : aggregator.steps())
    spans[key.step][rank_of.at(labels.at(key.process))].add(span.first, span.last);
  for (const auto &[number, by_rank] : spans) {
    StepTimes::Step &step = times.steps.emplace_back();
    step.number = number;
    for (const auto &[rank, span] : by_rank)
      step.times.emplace_back(rank, span.length());
  }
  return times;
}

} // namespace prof::stats
