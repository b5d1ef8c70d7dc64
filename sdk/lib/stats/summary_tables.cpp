#include <prof/stats/summary_tables.hpp>

#include <prof/stats/natural_order.hpp>
#include <prof/stats/text_table.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <cstdio>

namespace prof::stats {
namespace {} // namespace

std::string format_percent(uint64_t part, uint64_t whole) {
  const double percent = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / whole;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", percent);
  return text;
}

void sort_activity_rows(std::vector<ActivityRow> &rows) {
  std::sort(rows.begin(), rows.end(), [](const ActivityRow &a, const ActivityRow &b) {
    if (a.stats.total != b.stats.total) return a.stats.total > b.stats.total;
    return a.name < b.name;
  });
}

std::vector<std::string> format_activity_table(std::vector<ActivityGroupRows> groups) {
  std::sort(groups.begin(), groups.end(),
            [](const auto &a, const auto &b) { return a.group < b.group; });
  TextTable table({{"Type", Align::Right},
                   {"Time(%)", Align::Right},
                   {"Time", Align::Right},
                   {"Calls", Align::Right},
                   {"Avg", Align::Right},
                   {"Min", Align::Right},
                   {"Max", Align::Right},
                   {"Name", Align::Left}});
  std::vector<std::vector<std::string>> cells;
  for (ActivityGroupRows &group : groups) {
    sort_activity_rows(group.rows);
    uint64_t group_total = 0;
    for (const ActivityRow &row : group.rows)
      group_total += row.stats.total;
    bool first = true;
    for (const ActivityRow &row : group.rows) {
      const DurationStats &s = row.stats;
      cells.push_back({first ? group_title(group.group) : "", format_percent(s.total, group_total),
                       format_duration(s.total), std::to_string(s.calls),
                       format_duration(s.average()), format_duration(s.calls == 0 ? 0 : s.min),
                       format_duration(s.max), row.name});
      table.fit_row(cells.back());
      first = false;
    }
  }
  std::vector<std::string> lines;
  if (cells.empty()) return lines;
  lines.push_back(table.header());
  for (const auto &row : cells)
    lines.push_back(table.row(row));
  return lines;
}

std::vector<std::string> format_counter_table(std::vector<CounterRow> rows) {
  std::vector<std::string> lines;
  if (rows.empty()) return lines;
  std::sort(rows.begin(), rows.end(),
            [](const CounterRow &a, const CounterRow &b) { return natural_less(a.name, b.name); });
  TextTable table({{"Min", Align::Right},
                   {"Avg", Align::Right},
                   {"Max", Align::Right},
                   {"Unit", Align::Left},
                   {"Name", Align::Left}});
  std::vector<std::vector<std::string>> cells;
  for (const CounterRow &row : rows) {
    const CounterStats &s = row.stats;
    cells.push_back(
        {format_counter_value(s.min, row.unit), format_counter_value(s.average(), row.unit),
         format_counter_value(s.max, row.unit), row.unit.empty() ? "-" : row.unit, row.name});
    table.fit_row(cells.back());
  }
  lines.push_back(table.header());
  for (const auto &row : cells)
    lines.push_back(table.row(row));
  return lines;
}

} // namespace prof::stats
