#include "operator_report.hpp"

#include <prof/stats/natural_order.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace prof::stats {

StatsTable operator_report(const StatsAggregator &aggregator, const ExportHost &host,
                           const ReportOptions &options) {
  const bool by_shapes = options.group_by == OperatorGrouping::Shapes;
  StatsTable table{"torch-ops",
                   "",
                   {{"Name", "Name", Align::Left},
                    {"Pass", "Pass", Align::Left},
                    {"Calls", "Calls", Align::Right},
                    {"Self", "Self(ns)", Align::Right},
                    {"Self(%)", "Self(%)", Align::Right},
                    {"Total", "Total(ns)", Align::Right},
                    {"Avg", "Avg(ns)", Align::Right},
                    {"Min", "Min(ns)", Align::Right},
                    {"Max", "Max(ns)", Align::Right}},
                   {},
                   "======== Operators: none in this report",
                   {}};
  // By resolved texts, so equal names interned apart (merged reports) are one row.
  const auto text_of = [&host](prof_string_id id) {
    return id == 0 ? std::string() : std::string(host.string(id));
  };
  using Key = std::tuple<std::string, std::string, std::string>; // name, pass, shapes
  std::map<Key, OperatorStats> by_key;
  for (const auto &[key, stats] : aggregator.operators()) {
    std::string pass = text_of(key.pass);
    by_key[{text_of(key.name), pass.empty() ? "forward" : std::move(pass),
            by_shapes ? text_of(key.shapes) : std::string()}]
        .merge(stats);
  }
  if (by_key.empty()) {
    if (by_shapes) table.columns.push_back({"Input Shapes", "Input Shapes", Align::Left});
    return table;
  }
  bool memory = false;
  for (const auto &[key, stats] : by_key)
    memory = memory || stats.with_memory > 0;
  if (memory) {
    table.columns.push_back({"Mem", "Mem(B)", Align::Right});
    table.columns.push_back({"Self Mem", "Self Mem(B)", Align::Right});
  }
  if (by_shapes) table.columns.push_back({"Input Shapes", "Input Shapes", Align::Left});
  const auto bytes_cell = [](int64_t bytes) {
    return Cell::of_real(static_cast<double>(bytes), format_bytes(static_cast<double>(bytes)));
  };
  std::vector<const std::pair<const Key, OperatorStats> *> rows;
  uint64_t total_self = 0;
  for (const auto &row : by_key) {
    rows.push_back(&row);
    total_self += row.second.self;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto *a, const auto *b) {
    if (a->second.self != b->second.self) return a->second.self > b->second.self;
    const auto &[a_name, a_pass, a_shapes] = a->first;
    const auto &[b_name, b_pass, b_shapes] = b->first;
    if (a_name != b_name) return natural_less(a_name, b_name);
    if (a_pass != b_pass) return natural_less(a_pass, b_pass);
    return natural_less(a_shapes, b_shapes);
  });
  Section section{
      "", by_shapes ? "======== Operators by name and input shapes:" : "======== Operators:", {}};
  for (const auto *row : rows) {
    const auto &[name, pass, shapes] = row->first;
    const OperatorStats &s = row->second;
    std::vector<Cell> cells{Cell::of_text(name),
                            Cell::of_text(pass),
                            Cell::of_count(s.durations.calls),
                            Cell::of_ns(s.self),
                            Cell::of_percent(s.self, total_self),
                            Cell::of_ns(s.durations.total),
                            Cell::of_ns(s.durations.average()),
                            Cell::of_ns(s.durations.min),
                            Cell::of_ns(s.durations.max)};
    if (memory) {
      cells.push_back(bytes_cell(s.allocated));
      cells.push_back(bytes_cell(s.self_allocated));
    }
    if (by_shapes) cells.push_back(shapes.empty() ? Cell::of_text("-", "") : Cell::of_text(shapes));
    section.rows.push_back(std::move(cells));
  }
  table.sections.push_back(std::move(section));
  table.notes.push_back(
      "Self: an operator's time less that of the operators it called (its \"self\" argument; a "
      "call without one counts in full); Self(%) of all operators' self time; Total, Avg, Min "
      "and Max of their durations, an operator called inside another counting in both; a call "
      "without a \"pass\" argument is forward");
  if (memory)
    table.notes.push_back(
        "Mem: bytes the calls and the operators they called allocated less those they freed "
        "(their \"allocated\" argument), as key_averages(profile_memory=True) shows; Self Mem "
        "the same less the operators they called");
  return table;
}

} // namespace prof::stats
