#include "csv_summary.hpp"

#include <prof/stats/counter_name.hpp>
#include <prof/stats/natural_order.hpp>
#include <prof/stats/summary_tables.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace prof::csv {
namespace {

using stats::ActivityGroup;
using stats::DurationStats;

/// "GCU activities:" → "GCU activities"; "12.34%" → "12.34".
std::string without_last(std::string text, char last) {
  if (!text.empty() && text.back() == last) text.pop_back();
  return text;
}

uint64_t write_activities(const ExportHost &host, const stats::SummaryAggregator &aggregator,
                          CsvFile &out) {
  // Keyed by resolved name, as the summary does, so equal names interned
  // apart merge; devices merge into one group as in mode=summary.
  std::map<ActivityGroup, std::map<std::string, DurationStats>> groups;
  for (const auto &[key, stats] : aggregator.activities())
    groups[key.group][std::string(host.string(key.name))].merge(stats);

  out.header("Type,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name");
  uint64_t rows = 0;
  for (const auto &[group, by_name] : groups) {
    std::vector<std::pair<std::string, DurationStats>> sorted(by_name.begin(), by_name.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
      if (a.second.total != b.second.total) return a.second.total > b.second.total;
      return a.first < b.first;
    });
    uint64_t group_total = 0;
    for (const auto &[name, s] : sorted) group_total += s.total;
    const std::string title = without_last(stats::group_title(group), ':');
    for (const auto &[name, s] : sorted) {
      out.field(title)
          .field(without_last(stats::format_percent(s.total, group_total), '%'))
          .field(s.total)
          .field(s.calls)
          .field(s.average())
          .field(s.calls == 0 ? uint64_t{0} : s.min)
          .field(s.max)
          .field(name)
          .end_row();
      ++rows;
    }
  }
  return rows;
}

} // namespace

uint64_t write_summary(const ExportHost &host, const stats::SummaryAggregator &aggregator,
                       CsvFile &out) {
  uint64_t rows = write_activities(host, aggregator, out);
  if (aggregator.counters().empty()) return rows;

  struct CounterRow {
    std::string name, unit;
    stats::CounterStats stats;
  };
  std::vector<CounterRow> counters;
  for (const auto &[track, values] : aggregator.counters()) {
    const prof_track_desc *desc = host.track(track);
    counters.push_back({stats::counter_name(host, track),
                        desc && desc->unit ? std::string(desc->unit) : std::string(), values});
  }
  std::sort(counters.begin(), counters.end(), [](const CounterRow &a, const CounterRow &b) {
    return stats::natural_less(a.name, b.name);
  });
  out.header("");
  out.header("Counter,Unit,Min,Avg,Max");
  for (const CounterRow &row : counters) {
    out.field(row.name)
        .field(row.unit)
        .field(row.stats.min)
        .field(row.stats.average())
        .field(row.stats.max)
        .end_row();
    ++rows;
  }
  return rows;
}

} // namespace prof::csv
