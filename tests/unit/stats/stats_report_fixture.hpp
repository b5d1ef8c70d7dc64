// A test fixture that writes a TestReport, opens it and scans it as
// `prof stats` does, and reads cells of the tables it gives.
#pragma once

#include "stats_test_report.hpp"

#include "core/plugin_host/report_export_view.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include <prof/stats/stats_reports.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace prof::stats::testing {

/// The value of column `key` in row `row` of `section` (its own columns, or
/// the table's), as CSV writes it; "no column KEY" when there is none.
inline std::string value(const StatsTable &table, size_t section, size_t row,
                         const std::string &key) {
  const Section &rows = table.sections.at(section);
  const std::vector<Column> &columns = table.columns_of(rows);
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].key != key) continue;
    const Cell &cell = rows.rows.at(row).at(c);
    switch (cell.kind) {
    case Cell::Kind::Integer:
      return std::to_string(cell.integer);
    case Cell::Kind::Real: {
      std::ostringstream text;
      text << cell.real;
      return text.str();
    }
    case Cell::Kind::Text:
      return cell.data;
    }
  }
  return "no column " + key;
}

/// Lines of `text`, without their '\n'.
inline std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

class ReportFixture : public ::testing::Test {
protected:
  /// Writes `report` with `events_per_chunk` events to a chunk and opens it.
  void open(const TestReport &report, size_t events_per_chunk) {
    path_ = dir_.file("r.profrep");
    report.write(path_, events_per_chunk);
    host_.reset();
    ASSERT_TRUE(reader_.open(path_)) << reader_.problems().back();
    host_.emplace(reader_);
  }
  /// One scan for `names`, then each report.
  std::vector<StatsTable> run(const std::vector<std::string> &names, ReportOptions options = {},
                              size_t threads = 0) {
    StatsAggregator aggregator =
        tool::scan_report(reader_, host_->host(), scope_for(names, options), {threads, {}})
            .aggregator;
    std::vector<StatsTable> tables;
    for (const auto &name : names)
      tables.push_back(build_report(name, aggregator, host_->host(), options));
    return tables;
  }
  StatsTable one(const std::string &name, ReportOptions options = {}) {
    return run({name}, options).front();
  }

  ScratchDir dir_;
  std::string path_;
  report::ReportReader reader_;
  std::optional<core::ReportExportView> host_;
};

} // namespace prof::stats::testing
