#include <prof/stats/rank_charts.hpp>

#include "rank_identity.hpp"

#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/rank_outliers.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace prof::stats {
namespace {

constexpr size_t kMostSkewed = 10;

/// A rank's row: its labels, and where it sorts (by node, then rank).
struct RankRow {
  std::string label, full, node;
  int rank = -1;
};

/// "rank 56 · node007": rank and node first, so that they survive a short
/// label; "rank 56" without a node; the process label without a rank.
std::string rank_node_label(const RankIdentity &said, const std::string &full) {
  if (said.rank < 0) return full;
  const std::string rank = "rank " + std::to_string(said.rank);
  return said.node.empty() ? rank : rank + " \u00b7 " + said.node;
}

bool row_less(const RankRow &a, const RankRow &b) {
  if (a.node != b.node) return natural_less(a.node, b.node);
  if (a.rank != b.rank) return a.rank < b.rank;
  return natural_less(a.label, b.label);
}

/// The rows of `processes`, one per label (processes of one label are one
/// rank), and each process's row.
std::map<prof_track_id, size_t> rank_rows(const std::set<prof_track_id> &processes,
                                          const ExportHost &host, RankCharts &charts) {
  std::map<std::string, RankRow> by_label;
  std::map<prof_track_id, std::string> label_of;
  for (const prof_track_id process : processes) {
    const std::string full = process_label(host, process);
    label_of[process] = full;
    if (by_label.count(full)) continue;
    const prof_track_desc *desc = host.track(process);
    const RankIdentity said = rank_identity(desc && desc->name ? desc->name : "");
    by_label[full] = {rank_node_label(said, full), full, said.node, said.rank};
  }
  std::vector<RankRow> rows;
  for (auto &[full, row] : by_label)
    rows.push_back(std::move(row));
  std::sort(rows.begin(), rows.end(), row_less);
  std::map<std::string, size_t> index;
  bool any_node = false, any_shorter = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    index[rows[i].full] = i;
    charts.ranks.push_back(rows[i].label);
    charts.full_labels.push_back(rows[i].full);
    charts.nodes.push_back(rows[i].node);
    any_node |= !rows[i].node.empty();
    any_shorter |= rows[i].label != rows[i].full;
  }
  if (!any_node) charts.nodes.clear();
  if (!any_shorter) charts.full_labels.clear();
  std::map<prof_track_id, size_t> row;
  for (const auto &[process, full] : label_of)
    row[process] = index.at(full);
  return row;
}

/// "AllReduce #7 to #9 on world", or "operations 7 to 9" across communicators.
std::string column_name(const std::string &first_name, uint64_t first_sequence,
                        const std::string &first_communicator, uint64_t last_sequence,
                        const std::string &last_communicator, size_t first, size_t last) {
  if (first == last)
    return first_name + " #" + std::to_string(first_sequence) + " on " + first_communicator;
  if (first_communicator == last_communicator)
    return first_name + " #" + std::to_string(first_sequence) + " to #" +
           std::to_string(last_sequence) + " on " + first_communicator;
  return "operations " + std::to_string(first + 1) + " to " + std::to_string(last + 1);
}

/// Fills the lateness columns, each rank's mean lateness and the most skewed
/// operations from every collective call, sorted once (no table per
/// operation: 256 ranks in 60,000 operations are 15 million calls).
void lateness(const StatsAggregator &aggregator, const ExportHost &host,
              const std::map<prof_track_id, size_t> &row, size_t max_columns, RankCharts &charts) {
  const std::vector<CollectiveCall> &calls = aggregator.collective_calls();
  std::map<prof_string_id, std::string> communicators;
  for (const CollectiveCall &call : calls)
    if (!communicators.count(call.communicator))
      communicators.emplace(call.communicator, std::string(host.string(call.communicator)));
  std::vector<prof_string_id> by_name;
  for (const auto &[id, name] : communicators)
    by_name.push_back(id);
  std::sort(by_name.begin(), by_name.end(), [&](prof_string_id a, prof_string_id b) {
    return natural_less(communicators.at(a), communicators.at(b));
  });
  std::map<prof_string_id, size_t> order_of;
  for (size_t i = 0; i < by_name.size(); ++i)
    order_of[by_name[i]] = i;

  struct Arrival {
    uint32_t communicator, row;
    uint64_t sequence, begin;
    prof_string_id name;
  };
  std::vector<Arrival> firsts;
  firsts.reserve(calls.size());
  for (const CollectiveCall &call : calls)
    firsts.push_back({static_cast<uint32_t>(order_of.at(call.communicator)),
                      static_cast<uint32_t>(row.at(call.process)), call.sequence, call.begin,
                      call.name});
  std::sort(firsts.begin(), firsts.end(), [](const Arrival &a, const Arrival &b) {
    return std::tie(a.communicator, a.sequence, a.row, a.begin) <
           std::tie(b.communicator, b.sequence, b.row, b.begin);
  });
  // Operations: runs of one (communicator, sequence), of two ranks or more;
  // each rank's first call in it is kept, in place.
  struct Operation {
    size_t from, to;
  };
  std::vector<Operation> operations;
  size_t kept = 0;
  for (size_t at = 0; at < firsts.size();) {
    const size_t from = kept;
    size_t end = at;
    for (; end < firsts.size() && firsts[end].communicator == firsts[at].communicator &&
           firsts[end].sequence == firsts[at].sequence;
         ++end)
      if (end == at || firsts[end].row != firsts[end - 1].row) firsts[kept++] = firsts[end];
    if (kept - from >= 2)
      operations.push_back({from, kept});
    else
      kept = from;
    at = end;
  }
  firsts.resize(kept);
  // Only the wide communicators' operations: point-to-point pairs (two
  // ranks of thousands) would fill the columns with ranks not in them.
  std::vector<size_t> widest(by_name.size(), 0);
  for (const Operation &op : operations)
    widest[firsts[op.from].communicator] =
        std::max(widest[firsts[op.from].communicator], op.to - op.from);
  const size_t largest = *std::max_element(widest.begin(), widest.end());
  std::set<uint32_t> narrow;
  std::erase_if(operations, [&](const Operation &op) {
    const uint32_t communicator = firsts[op.from].communicator;
    if (2 * widest[communicator] >= largest) return false;
    narrow.insert(communicator);
    ++charts.narrow_operations;
    return true;
  });
  charts.narrow_communicators = narrow.size();

  const size_t count = operations.size();
  charts.operation_count = count;
  charts.operations_per_column = std::max<size_t>(1, (count + max_columns - 1) / max_columns);
  const size_t per = charts.operations_per_column;
  const size_t columns = (count + per - 1) / per;
  const size_t ranks = charts.ranks.size();
  charts.lateness.assign(ranks, std::vector<int64_t>(columns, -1));
  std::vector<uint64_t> sum(ranks, 0), in(ranks, 0);
  const auto name_of = [&](const Arrival &a) { return std::string(host.string(a.name)); };
  for (size_t op = 0; op < count; ++op) {
    const Arrival *first = &firsts[operations[op].from];
    const Arrival *end = &firsts[operations[op].to];
    uint64_t earliest = UINT64_MAX;
    const Arrival *last = first;
    for (const Arrival *a = first; a != end; ++a) {
      earliest = std::min(earliest, a->begin);
      if (a->begin > last->begin) last = a;
    }
    const size_t column = op / per;
    for (const Arrival *a = first; a != end; ++a) {
      const uint64_t late = a->begin - earliest;
      int64_t &cell = charts.lateness[a->row][column];
      cell = std::max(cell, static_cast<int64_t>(late));
      sum[a->row] += late;
      ++in[a->row];
    }
    const uint64_t skew = last->begin - earliest;
    auto &skewed = charts.most_skewed;
    if (skewed.size() < kMostSkewed || skew > skewed.back().skew) {
      RankCharts::SkewedOperation entry{name_of(*first) + " #" + std::to_string(first->sequence) +
                                            " on " + communicators.at(by_name[first->communicator]),
                                        skew, last->row, static_cast<size_t>(end - first)};
      const auto at = std::upper_bound(
          skewed.begin(), skewed.end(), skew,
          [](uint64_t value, const RankCharts::SkewedOperation &s) { return value > s.skew; });
      skewed.insert(at, std::move(entry));
      if (skewed.size() > kMostSkewed) skewed.pop_back();
    }
  }
  for (size_t column = 0; column < columns; ++column) {
    const size_t a = column * per, b = std::min(count, a + per) - 1;
    const Arrival &x = firsts[operations[a].from], &y = firsts[operations[b].from];
    charts.operations.push_back(column_name(name_of(x), x.sequence,
                                            communicators.at(by_name[x.communicator]), y.sequence,
                                            communicators.at(by_name[y.communicator]), a, b));
  }
  charts.mean_lateness.assign(ranks, -1);
  for (size_t r = 0; r < ranks; ++r)
    if (in[r] > 0) charts.mean_lateness[r] = static_cast<int64_t>(sum[r] / in[r]);
}

/// The ranks and nodes `found` names, in the order of its findings (the
/// largest excess first within each measure), and its findings' lines.
void outliers(const RankOutliers &found, const std::map<prof_track_id, size_t> &row,
              RankCharts &charts) {
  std::set<size_t> ranks;
  std::set<std::string> nodes;
  for (const OutlierFinding &finding : found.findings) {
    charts.outlier_findings.push_back(finding.text);
    if (!finding.node.empty() && nodes.insert(finding.node).second)
      charts.outlier_nodes.push_back(finding.node);
    for (const size_t entry : finding.ranks)
      if (const auto r = row.find(found.ranks[entry].process); r != row.end())
        if (ranks.insert(r->second).second) charts.outlier_ranks.push_back(r->second);
  }
}

} // namespace

RankCharts rank_charts(const StatsAggregator &aggregator, const ExportHost &host,
                       size_t max_columns) {
  RankCharts charts;
  const auto text_of = [&host](prof_string_id id) { return std::string(host.string(id)); };
  // Every process with a collective or communication call, or a step, is a row.
  std::set<prof_track_id> processes;
  for (const CollectiveCall &call : aggregator.collective_calls())
    processes.insert(call.process);
  for (const auto &[key, stats] : aggregator.communication())
    processes.insert(key.process);
  for (const auto &[key, span] : aggregator.steps())
    processes.insert(key.process);
  const std::map<prof_track_id, size_t> row = rank_rows(processes, host, charts);
  if (!aggregator.collective_calls().empty())
    lateness(aggregator, host, row, std::max<size_t>(1, max_columns), charts);

  outliers(find_rank_outliers(aggregator, host), row, charts);

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

  // The step chart's ranks labelled as the others (its rows keep their order).
  charts.steps = step_times(aggregator, host);
  std::map<std::string, std::string> short_of;
  for (size_t r = 0; r < charts.ranks.size(); ++r)
    short_of[charts.full_labels.empty() ? charts.ranks[r] : charts.full_labels[r]] =
        charts.ranks[r];
  for (std::string &rank : charts.steps.ranks)
    if (const auto found = short_of.find(rank); found != short_of.end()) rank = found->second;
  return charts;
}

} // namespace prof::stats
