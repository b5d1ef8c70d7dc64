#include <prof/stats/stats_table.hpp>

#include <prof/json_text.hpp>

#include <prof/stats/summary_tables.hpp>
#include <prof/stats/time_format.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace prof::stats {
namespace {

/// Shortest text that reads back as `value`; JSON and CSV have no NaN or
/// infinity, so those become "".
std::string real_text(double value) {
  if (!std::isfinite(value)) return "";
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

std::string value_text(const Cell &cell) {
  switch (cell.kind) {
  case Cell::Kind::Integer:
    return std::to_string(cell.integer);
  case Cell::Kind::Real:
    return real_text(cell.real);
  case Cell::Kind::Text:
    break;
  }
  return cell.data;
}

std::string csv_field(const std::string &text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

void json_value(std::string &out, const Cell &cell) {
  if (cell.kind == Cell::Kind::Text) return prof::append_json_string(out, cell.data);
  const std::string text = value_text(cell);
  out += text.empty() ? "null" : text;
}

} // namespace

Cell Cell::of_ns(uint64_t ns) { return {format_duration(ns), Kind::Integer, ns, 0, {}}; }

Cell Cell::of_percent(uint64_t part, uint64_t whole) {
  const double percent = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / whole;
  return {format_percent(part, whole), Kind::Real, 0, std::round(percent * 100) / 100, {}};
}

size_t StatsTable::row_count() const {
  size_t rows = 0;
  for (const Section &section : sections)
    rows += section.rows.size();
  return rows;
}

std::string render_table(const std::vector<StatsTable> &tables) {
  std::string out;
  for (const StatsTable &table : tables) {
    if (table.sections.empty() && !table.empty_text.empty()) out += table.empty_text + "\n";
    for (const Section &section : table.sections) {
      if (section.rows.empty()) continue;
      std::vector<TextColumn> columns;
      for (const Column &column : table.columns_of(section))
        columns.push_back({column.title, column.align});
      TextTable text(std::move(columns));
      std::vector<std::vector<std::string>> cells;
      for (const auto &row : section.rows) {
        std::vector<std::string> line;
        for (const Cell &cell : row)
          line.push_back(cell.text);
        text.fit_row(line);
        cells.push_back(std::move(line));
      }
      out += section.title + "\n" + text.header() + "\n";
      for (const auto &line : cells)
        out += text.row(line) + "\n";
    }
    for (const std::string &note : table.notes)
      out += note + "\n";
  }
  return out;
}

std::string render_csv(const std::vector<StatsTable> &tables) {
  std::string out;
  const bool several = tables.size() > 1;
  for (size_t t = 0; t < tables.size(); ++t) {
    const StatsTable &table = tables[t];
    if (several) out += (t > 0 ? "\n# report " : "# report ") + table.report + "\n";
    const auto header = [&table](const std::vector<Column> &columns) {
      std::string line;
      if (!table.label_key.empty()) line = csv_field(table.label_key);
      for (const Column &column : columns)
        if (column.data) line += (line.empty() ? "" : ",") + csv_field(column.key);
      return line + "\n";
    };
    out += header(table.columns);
    for (const Section &section : table.sections) {
      const std::vector<Column> &columns = table.columns_of(section);
      if (!section.columns.empty() && !section.rows.empty()) out += "\n" + header(columns);
      for (const auto &row : section.rows) {
        std::string line;
        bool first = true;
        if (!table.label_key.empty()) {
          line = csv_field(section.label);
          first = false;
        }
        for (size_t c = 0; c < row.size() && c < columns.size(); ++c) {
          if (!columns[c].data) continue;
          if (!first) line += ',';
          line += csv_field(value_text(row[c]));
          first = false;
        }
        out += line + "\n";
      }
    }
    for (const std::string &note : table.notes)
      out += "# " + note + "\n";
  }
  return out;
}

std::string render_json(const std::vector<StatsTable> &tables) {
  std::string out = "{";
  for (size_t t = 0; t < tables.size(); ++t) {
    const StatsTable &table = tables[t];
    out += t == 0 ? "\n  " : ",\n  ";
    prof::append_json_string(out, table.report);
    out += ": {\"rows\": [";
    bool first_row = true;
    for (const Section &section : table.sections) {
      const std::vector<Column> &columns = table.columns_of(section);
      for (const auto &row : section.rows) {
        out += first_row ? "\n    {" : ",\n    {";
        first_row = false;
        bool first = true;
        if (!table.label_key.empty()) {
          prof::append_json_string(out, table.label_key);
          out += ": ";
          prof::append_json_string(out, section.label);
          first = false;
        }
        for (size_t c = 0; c < row.size() && c < columns.size(); ++c) {
          if (!columns[c].data) continue;
          if (!first) out += ", ";
          prof::append_json_string(out, columns[c].key);
          out += ": ";
          json_value(out, row[c]);
          first = false;
        }
        out += "}";
      }
    }
    out += first_row ? "]" : "\n  ]";
    if (!table.notes.empty()) {
      out += ", \"notes\": [";
      for (size_t n = 0; n < table.notes.size(); ++n) {
        if (n > 0) out += ", ";
        prof::append_json_string(out, table.notes[n]);
      }
      out += "]";
    }
    out += "}";
  }
  out += tables.empty() ? "}\n" : "\n}\n";
  return out;
}

} // namespace prof::stats
