#include <prof/stats/rank_charts.hpp>

#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace prof::stats {

RankCharts rank_charts(const StatsAggregator &aggregator, const ExportHost &host,
                       size_t max_operations) {
  RankCharts charts;
  const auto text_of = [&host](prof_string_id id) { return std::string(host.string(id)); };
  // Every process with a collective or communication call is a row.
  // Labels are made once per process track, not once per call.
  std::set<prof_track_id> processes;
  for (const CollectiveCall &call : aggregator.collective_calls())
    processes.insert(call.process);
  for (const auto &[key, stats] : aggregator.communication())
    processes.insert(key.process);
  std::map<std::string, size_t> row_of;
  for (const prof_track_id process : processes)
    row_of.emplace(process_label(host, process), 0);
  for (const auto &[label, row] : row_of)
    charts.ranks.push_back(label);
  std::sort(charts.ranks.begin(), charts.ranks.end(), natural_less);
  for (size_t i = 0; i < charts.ranks.size(); ++i)
    row_of[charts.ranks[i]] = i;
  std::map<prof_track_id, size_t> row; // by process track
  for (const prof_track_id process : processes)
    row[process] = row_of.at(process_label(host, process));

  // Operations: (communicator, sequence) -> each process's first arrival.
  struct Operation {
    std::string name;
    std::map<size_t, uint64_t> arrivals; // row -> begin
  };
  std::map<std::pair<std::string, uint64_t>, Operation> operations;
  for (const CollectiveCall &call : aggregator.collective_calls()) {
    Operation &op = operations[{text_of(call.communicator), call.sequence}];
    if (op.name.empty()) op.name = text_of(call.name);
    op.arrivals.emplace(row.at(call.process), call.begin);
  }
  std::vector<std::pair<std::string, uint64_t>> order;
  for (const auto &[key, op] : operations)
    if (op.arrivals.size() >= 2) order.push_back(key);
  std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? natural_less(a.first, b.first) : a.second < b.second;
  });
  if (order.size() > max_operations) {
    charts.operations_left_out = order.size() - max_operations;
    order.resize(max_operations);
  }
  charts.lateness.assign(charts.ranks.size(), std::vector<int64_t>(order.size(), -1));
  for (size_t column = 0; column < order.size(); ++column) {
    const Operation &op = operations.at(order[column]);
    charts.operations.push_back(op.name + " #" + std::to_string(order[column].second) + " on " +
                                order[column].first);
    uint64_t first = UINT64_MAX;
    for (const auto &[row, begin] : op.arrivals)
      first = std::min(first, begin);
    for (const auto &[row, begin] : op.arrivals)
      charts.lateness[row][column] = static_cast<int64_t>(begin - first);
  }

  // A name a rank made collective calls of counts whole as collective.
  std::set<std::pair<size_t, prof_string_id>> collective_names;
  for (const CollectiveCall &call : aggregator.collective_calls())
    collective_names.insert({row.at(call.process), call.name});
  charts.communication.resize(charts.ranks.size());
  charts.other_communication.resize(charts.ranks.size());
  std::map<std::tuple<size_t, bool, std::string>, uint64_t> by_name;
  for (const auto &[key, stats] : aggregator.communication()) {
    const size_t r = row.at(key.process);
    by_name[{r, collective_names.count({r, key.name}) != 0, text_of(key.name)}] +=
        stats.durations.total;
  }
  for (const auto &[key, ns] : by_name) {
    const auto &[r, collective, name] = key;
    (collective ? charts.communication : charts.other_communication)[r].push_back({name, ns});
  }
  charts.steps = step_times(aggregator, host);
  return charts;
}

} // namespace prof::stats
