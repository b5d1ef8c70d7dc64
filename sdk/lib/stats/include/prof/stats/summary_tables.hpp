// Text of the summary's two tables from resolved rows: the statistics table
// (topsprof's statistics mode) and the counter table.
#pragma once

#include <prof/stats/activity_stats.hpp>
#include <prof/stats/summary_aggregator.hpp>

#include <string>
#include <vector>

namespace prof::stats {

/// "12.34%": `part` of `whole` with two decimals (0.00% when whole is 0).
std::string format_percent(uint64_t part, uint64_t whole);

struct ActivityRow {
  std::string name;
  DurationStats stats;
};

/// The rows of one group, in any order.
struct ActivityGroupRows {
  ActivityGroup group;
  std::vector<ActivityRow> rows;
};

struct CounterRow {
  std::string name;
  std::string unit;
  CounterStats stats;
};

/// Sorts rows the way the statistics table prints them: by total time
/// descending, ties by name.
void sort_activity_rows(std::vector<ActivityRow> &rows);

/// Header plus one line per row. Groups print in ActivityGroup order, rows by
/// total time descending (ties by name), Time(%) relative to the group's total,
/// the group title only on its first row. Empty groups are left out.
std::vector<std::string> format_activity_table(std::vector<ActivityGroupRows> groups);

/// Header plus one line per counter track, in natural order of the names.
std::vector<std::string> format_counter_table(std::vector<CounterRow> rows);

} // namespace prof::stats
