#include <prof/stats/html_page.hpp>

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace prof::stats {
namespace {

std::string escaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

/// White for on time to red for the latest.
std::string lateness_color(int64_t late, int64_t latest) {
  if (late < 0) return "#d9d9d9";
  const double share = latest > 0 ? static_cast<double>(late) / static_cast<double>(latest) : 0;
  const int other = static_cast<int>(255 * (1 - share));
  char text[16];
  std::snprintf(text, sizeof text, "#ff%02x%02x", other, other);
  return text;
}

constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

constexpr int kLabelWidth = 420, kRowHeight = 18, kChartWidth = 760;

std::string heat_map(const RankCharts &charts) {
  int64_t latest = 0;
  for (const auto &row : charts.lateness)
    for (const int64_t late : row)
      latest = std::max(latest, late);
  const size_t columns = charts.operations.size();
  const double cell =
      std::clamp(static_cast<double>(kChartWidth) / static_cast<double>(columns), 2.0, 18.0);
  const double width = kLabelWidth + cell * static_cast<double>(columns) + 10;
  const int height = static_cast<int>(charts.ranks.size()) * kRowHeight + 40;
  std::string svg =
      "<svg id=\"lateness-heatmap\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"" +
      number(width) + "\" height=\"" + std::to_string(height) + "\">\n";
  for (size_t r = 0; r < charts.ranks.size(); ++r) {
    const int y = static_cast<int>(r) * kRowHeight;
    svg += "<text x=\"" + std::to_string(kLabelWidth - 6) + "\" y=\"" + std::to_string(y + 13) +
           "\" text-anchor=\"end\">" + escaped(charts.ranks[r]) + "</text>\n";
    for (size_t c = 0; c < columns; ++c) {
      const int64_t late = charts.lateness[r][c];
      svg += "<rect class=\"cell\" x=\"" + number(kLabelWidth + cell * static_cast<double>(c)) +
             "\" y=\"" + std::to_string(y) + "\" width=\"" + number(cell) + "\" height=\"" +
             std::to_string(kRowHeight - 2) + "\" fill=\"" + lateness_color(late, latest) +
             "\"><title>" + escaped(charts.ranks[r]) + ", " + escaped(charts.operations[c]) + ": " +
             (late < 0 ? std::string("not in it")
                       : format_duration(static_cast<uint64_t>(late)) + " after the first") +
             "</title></rect>\n";
    }
  }
  const int legend = static_cast<int>(charts.ranks.size()) * kRowHeight + 24;
  svg += "<text x=\"" + std::to_string(kLabelWidth) + "\" y=\"" + std::to_string(legend) +
         "\">white: first to arrive; red: " + format_duration(static_cast<uint64_t>(latest)) +
         " after the first; grey: not in the operation</text>\n</svg>\n";
  return svg;
}

std::string bars(const RankCharts &charts) {
  uint64_t longest = 0;
  std::map<std::string, std::string> colors;
  for (const auto &parts : charts.communication) {
    uint64_t total = 0;
    for (const RankCharts::Part &part : parts) {
      total += part.ns;
      if (!colors.count(part.name))
        colors[part.name] = kPalette[colors.size() % std::size(kPalette)];
    }
    longest = std::max(longest, total);
  }
  const int height = static_cast<int>(charts.ranks.size()) * kRowHeight +
                     static_cast<int>(colors.size()) * kRowHeight + 30;
  std::string svg =
      "<svg id=\"communication-bars\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"" +
      std::to_string(kLabelWidth + kChartWidth + 120) + "\" height=\"" + std::to_string(height) +
      "\">\n";
  for (size_t r = 0; r < charts.ranks.size(); ++r) {
    const int y = static_cast<int>(r) * kRowHeight;
    svg += "<text x=\"" + std::to_string(kLabelWidth - 6) + "\" y=\"" + std::to_string(y + 13) +
           "\" text-anchor=\"end\">" + escaped(charts.ranks[r]) + "</text>\n";
    double x = kLabelWidth;
    uint64_t total = 0;
    for (const RankCharts::Part &part : charts.communication[r]) {
      const double w =
          longest ? kChartWidth * static_cast<double>(part.ns) / static_cast<double>(longest) : 0;
      svg += "<rect class=\"part\" x=\"" + number(x) + "\" y=\"" + std::to_string(y) +
             "\" width=\"" + number(w) + "\" height=\"" + std::to_string(kRowHeight - 2) +
             "\" fill=\"" + colors[part.name] + "\"><title>" + escaped(charts.ranks[r]) + ": " +
             escaped(part.name) + " " + format_duration(part.ns) + "</title></rect>\n";
      x += w;
      total += part.ns;
    }
    svg += "<text x=\"" + number(x + 6) + "\" y=\"" + std::to_string(y + 13) + "\">" +
           format_duration(total) + "</text>\n";
  }
  int y = static_cast<int>(charts.ranks.size()) * kRowHeight + 16;
  for (const auto &[name, color] : colors) {
    svg += "<rect x=\"" + std::to_string(kLabelWidth) + "\" y=\"" + std::to_string(y) +
           "\" width=\"12\" height=\"12\" fill=\"" + color + "\"/><text x=\"" +
           std::to_string(kLabelWidth + 18) + "\" y=\"" + std::to_string(y + 11) + "\">" +
           escaped(name) + "</text>\n";
    y += kRowHeight;
  }
  return svg + "</svg>\n";
}

/// Steps past this many are left out of the step chart (the first are kept).
constexpr size_t kMaxChartSteps = 400;
constexpr int kAxisWidth = 80, kPlotHeight = 240;

/// Each rank's time in each step: a line per rank over the step number.
std::string step_chart(const StepTimes &times) {
  const size_t shown = std::min(times.steps.size(), kMaxChartSteps);
  uint64_t longest = 0;
  for (size_t i = 0; i < shown; ++i)
    for (const auto &[rank, ns] : times.steps[i].times)
      longest = std::max(longest, ns);
  const auto x = [shown](size_t i) {
    return kAxisWidth + (shown > 1
                             ? kChartWidth * static_cast<double>(i) / static_cast<double>(shown - 1)
                             : kChartWidth / 2.0);
  };
  const auto y = [longest](uint64_t ns) {
    return 10 + kPlotHeight * (1 - (longest ? static_cast<double>(ns) / longest : 0.0));
  };
  const int legend = 10 + kPlotHeight + 36;
  const int height = legend + static_cast<int>(times.ranks.size()) * kRowHeight + 8;
  std::string svg = "<svg id=\"step-times\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
                    "width=\"" +
                    std::to_string(kAxisWidth + kChartWidth + 40) + "\" height=\"" +
                    std::to_string(height) + "\">\n";
  const std::string bottom = number(y(0)), left = std::to_string(kAxisWidth);
  svg += "<line x1=\"" + left + "\" y1=\"10\" x2=\"" + left + "\" y2=\"" + bottom +
         "\" stroke=\"#999\"/><line x1=\"" + left + "\" y1=\"" + bottom + "\" x2=\"" +
         std::to_string(kAxisWidth + kChartWidth) + "\" y2=\"" + bottom + "\" stroke=\"#999\"/>\n";
  svg += "<text x=\"" + std::to_string(kAxisWidth - 6) + "\" y=\"18\" text-anchor=\"end\">" +
         format_duration(longest) + "</text><text x=\"" + std::to_string(kAxisWidth - 6) +
         "\" y=\"" + bottom + "\" text-anchor=\"end\">0</text>\n";
  const std::string axis_y = number(y(0) + 16);
  svg += "<text x=\"" + number(x(0)) + "\" y=\"" + axis_y + "\" text-anchor=\"middle\">step " +
         std::to_string(times.steps.front().number) + "</text>\n";
  if (shown > 1)
    svg += "<text x=\"" + number(x(shown - 1)) + "\" y=\"" + axis_y +
           "\" text-anchor=\"middle\">step " + std::to_string(times.steps[shown - 1].number) +
           "</text>\n";
  // Points by rank, in step order.
  std::vector<std::vector<std::pair<size_t, uint64_t>>> points(times.ranks.size());
  for (size_t i = 0; i < shown; ++i)
    for (const auto &[rank, ns] : times.steps[i].times)
      points[rank].emplace_back(i, ns);
  for (size_t r = 0; r < times.ranks.size(); ++r) {
    const std::string color = kPalette[r % std::size(kPalette)];
    std::string line;
    for (const auto &[i, ns] : points[r])
      line += (line.empty() ? "" : " ") + number(x(i)) + "," + number(y(ns));
    svg += "<polyline class=\"rank-line\" fill=\"none\" stroke=\"" + color + "\" points=\"" + line +
           "\"><title>" + escaped(times.ranks[r]) + "</title></polyline>\n";
    for (const auto &[i, ns] : points[r])
      svg += "<circle class=\"step-point\" cx=\"" + number(x(i)) + "\" cy=\"" + number(y(ns)) +
             "\" r=\"3\" fill=\"" + color + "\"><title>" + escaped(times.ranks[r]) + ", step " +
             std::to_string(times.steps[i].number) + ": " + format_duration(ns) +
             "</title></circle>\n";
    const int row = legend + static_cast<int>(r) * kRowHeight;
    svg += "<rect x=\"" + left + "\" y=\"" + std::to_string(row) +
           "\" width=\"12\" height=\"12\" fill=\"" + color + "\"/><text x=\"" +
           std::to_string(kAxisWidth + 18) + "\" y=\"" + std::to_string(row + 11) + "\">" +
           escaped(times.ranks[r]) + "</text>\n";
  }
  return svg + "</svg>\n";
}

std::string table_html(const StatsTable &table) {
  std::string html = "<section class=\"report\" id=\"report-" + escaped(table.report) +
                     "\">\n<h2>" + escaped(table.report) + "</h2>\n";
  if (table.sections.empty() && !table.empty_text.empty())
    html += "<p>" + escaped(table.empty_text) + "</p>\n";
  for (const Section &section : table.sections) {
    if (section.rows.empty()) continue;
    const std::vector<Column> &columns = table.columns_of(section);
    html += "<h3>" + escaped(section.title) + "</h3>\n<table>\n<thead><tr>";
    for (const Column &column : columns)
      html += "<th>" + escaped(column.title) + "</th>";
    html += "</tr></thead>\n<tbody>\n";
    for (const auto &row : section.rows) {
      html += "<tr>";
      for (size_t i = 0; i < row.size(); ++i) {
        const bool right = i < columns.size() && columns[i].align == Align::Right;
        html += right ? "<td class=\"n\">" : "<td>";
        html += escaped(row[i].text) + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
  }
  if (!table.notes.empty()) {
    html += "<ul class=\"notes\">\n";
    for (const std::string &note : table.notes)
      html += "<li>" + escaped(note) + "</li>\n";
    html += "</ul>\n";
  }
  return html + "</section>\n";
}

} // namespace

std::string render_html(const std::vector<StatsTable> &tables, const RankCharts &charts,
                        const std::string &title) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
      escaped(title) +
      "</title>\n<style>\n"
      "body{font-family:sans-serif;margin:24px;color:#222}\n"
      "table{border-collapse:collapse;margin:8px 0 16px}\n"
      "th,td{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:left}\n"
      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
      "svg.chart{display:block;margin:8px 0 24px}\nsvg text{font-size:12px}\n"
      "ul.notes{font-size:13px}\n</style>\n</head>\n<body>\n<h1>" +
      escaped(title) + "</h1>\n";
  if (!charts.operations.empty()) {
    html += "<h2>How late each rank came to each collective operation</h2>\n" + heat_map(charts);
    if (charts.operations_left_out > 0)
      html += "<p>The first " + std::to_string(charts.operations.size()) + " operations; " +
              std::to_string(charts.operations_left_out) + " more are left out.</p>\n";
  }
  bool communication = false;
  for (const auto &parts : charts.communication)
    communication |= !parts.empty();
  if (communication) html += "<h2>Time in communication by rank</h2>\n" + bars(charts);
  if (!charts.steps.steps.empty()) {
    html += "<h2>Time of each step by rank</h2>\n" + step_chart(charts.steps);
    if (charts.steps.steps.size() > kMaxChartSteps)
      html += "<p>The first " + std::to_string(kMaxChartSteps) + " steps; " +
              std::to_string(charts.steps.steps.size() - kMaxChartSteps) +
              " more are left out.</p>\n";
  }
  for (const StatsTable &table : tables)
    html += table_html(table);
  return html + "</body>\n</html>\n";
}

} // namespace prof::stats
