// The output of one `prof stats` report, and its three renderings: console
// tables in the summary's layout, CSV and JSON. Each cell holds both the text
// the console shows ("2.00ms") and the value the data formats carry
// (2000000, a number in ns).
#pragma once

#include <prof/stats/text_table.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

/// One cell: console text plus a typed value for CSV and JSON.
struct Cell {
  enum class Kind : uint8_t { Text, Integer, Real };
  std::string text;
  Kind kind = Kind::Text;
  uint64_t integer = 0;
  double real = 0;
  std::string data; ///< a Text cell's value, when it differs from what the console shows

  static Cell of_text(std::string text) {
    std::string data = text;
    return {std::move(text), Kind::Text, 0, 0, std::move(data)};
  }
  /// Shown as `text`, written as `data` ("-" on the console, "" in CSV).
  static Cell of_text(std::string text, std::string data) {
    return {std::move(text), Kind::Text, 0, 0, std::move(data)};
  }
  static Cell of_count(uint64_t n) { return {std::to_string(n), Kind::Integer, n, 0, {}}; }
  /// A duration or a time in ns, shown as "15.62us".
  static Cell of_ns(uint64_t ns);
  /// `part` of `whole` in percent, shown "12.34%"; the value keeps two decimals.
  static Cell of_percent(uint64_t part, uint64_t whole);
  static Cell of_real(double value, std::string text) {
    return {std::move(text), Kind::Real, 0, value, {}};
  }
};

struct Column {
  std::string title; ///< console header ("Time")
  std::string key;   ///< CSV header and JSON member ("Time(ns)")
  Align align = Align::Right;
  bool data = true; ///< false: console only (the Type column of activity tables)
};

/// Rows under one title: the whole report, or one device of it.
struct Section {
  std::string label; ///< "" or what the rows belong to ("GCU 0")
  std::string title; ///< console title, e.g. "======== GCU activities (GCU 0):"
  std::vector<std::vector<Cell>> rows;
  /// Its own columns when they are not the table's (a report of two kinds
  /// of rows); empty: the table's.
  std::vector<Column> columns = {};
};

struct StatsTable {
  std::string report;    ///< report name ("gcu-activity")
  std::string label_key; ///< CSV/JSON column of the section labels ("Device"), "" if none
  std::vector<Column> columns;
  std::vector<Section> sections;
  std::string empty_text;         ///< console line when there are no sections at all
  std::vector<std::string> notes; ///< lines after the table (console), "notes" (JSON), "# " (CSV)
  size_t row_count() const;
  /// The columns of `section`: its own, or else the table's.
  const std::vector<Column> &columns_of(const Section &section) const {
    return section.columns.empty() ? columns : section.columns;
  }
};

/// Console text: each section's title, header and rows in the summary's
/// layout (a section without rows is left out), then the notes.
std::string render_table(const std::vector<StatsTable> &tables);
/// CSV (RFC 4180). One report: a header row and its rows; a section with
/// its own columns after a blank line and its own header row. Several: each
/// starts with a "# report NAME" line, and a blank line separates them.
/// Notes follow their rows as "# " lines.
std::string render_csv(const std::vector<StatsTable> &tables);
/// JSON: {"NAME": {"rows": [{KEY: value, ...}, ...], "notes": [...]}, ...},
/// numbers as numbers, in the order of `tables`; each row has the keys of
/// its section's columns.
std::string render_json(const std::vector<StatsTable> &tables);

} // namespace prof::stats
