#include <prof/stats/html_page.hpp>

#include "html_charts.hpp"
#include "html_text.hpp"

#include <cmath>
#include <cstdio>

namespace prof::stats {
namespace {

/// A console heading ("======== Heap of app: peak ...:") as a page's.
std::string heading(const std::string &text) {
  size_t first = text.find_first_not_of("= ");
  if (first == std::string::npos) return text;
  std::string out = text.substr(first);
  if (!out.empty() && out.back() == ':') out.pop_back();
  return out;
}

/// A cell's value for sorting: its number, when it has one.
std::string sort_value(const Cell &cell) {
  char text[40];
  switch (cell.kind) {
  case Cell::Kind::Integer:
    return std::to_string(cell.integer);
  case Cell::Kind::Real:
    if (!std::isfinite(cell.real)) return {}; // no number to sort by
    std::snprintf(text, sizeof text, "%.17g", cell.real);
    return text;
  default:
    return {};
  }
}

std::string table_html(const StatsTable &table) {
  std::string html = "<section class=\"report\" id=\"report-" + escaped(table.report) +
                     "\">\n<h2>" + escaped(table.report) + "</h2>\n";
  if (table.sections.empty() && !table.empty_text.empty())
    html += "<p>" + escaped(heading(table.empty_text)) + "</p>\n";
  for (const Section &section : table.sections) {
    if (section.rows.empty()) continue;
    const std::vector<Column> &columns = table.columns_of(section);
    html +=
        "<h3>" + escaped(heading(section.title)) + "</h3>\n<table class=\"sortable\">\n<thead><tr>";
    for (const Column &column : columns)
      html +=
          "<th title=\"sort by " + escaped(column.title) + "\">" + escaped(column.title) + "</th>";
    html += "</tr></thead>\n<tbody>\n";
    for (const auto &row : section.rows) {
      html += "<tr>";
      for (size_t i = 0; i < row.size(); ++i) {
        const bool right = i < columns.size() && columns[i].align == Align::Right;
        const std::string value = sort_value(row[i]);
        html += std::string(right ? "<td class=\"n\"" : "<td") +
                (value.empty() ? "" : " data-v=\"" + value + "\"") + ">" + escaped(row[i].text) +
                "</td>";
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

bool any_parts(const std::vector<std::vector<RankCharts::Part>> &by_rank) {
  for (const auto &parts : by_rank)
    if (!parts.empty()) return true;
  return false;
}

// Sorts a table by the column whose heading is clicked (again: the other
// way): by data-v where cells have one, else by text, numbers within it in
// order ("rank 2" before "rank 10"). Inline: the page fetches nothing.
constexpr const char *kSortScript = R"(<script>
document.querySelectorAll('table.sortable th').forEach(function (th, _, all) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0];
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var down = th.getAttribute('aria-sort') !== 'descending';
    th.parentNode.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
    var text = new Intl.Collator(undefined, {numeric: true});
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column], y = b.cells[column];
      if (!x || !y) return 0;
      var order = x.dataset.v !== undefined && y.dataset.v !== undefined
          ? Number(x.dataset.v) - Number(y.dataset.v)
          : text.compare(x.textContent, y.textContent);
      return down ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
</script>
)";

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
      "th{background:#f3f3f3;cursor:pointer;user-select:none}\n"
      "th[aria-sort=descending]::after{content:' \\25BC'}\n"
      "th[aria-sort=ascending]::after{content:' \\25B2'}\n"
      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
      "svg.chart{display:block;margin:8px 0 24px}\nsvg text{font-size:12px}\n"
      "p.what{font-size:13px;color:#555;max-width:60em}\n"
      "ul.notes{font-size:13px}\n</style>\n</head>\n<body>\n<h1>" +
      escaped(title) + "</h1>\n";
  if (!charts.operations.empty()) {
    html += "<h2>How late each rank came to each collective operation</h2>\n"
            "<p class=\"what\">A row per rank, a column per operation matched across ranks "
            "(by communicator, in sequence): how long after the first rank each came to it. "
            "Hover a cell for the operation and the time.</p>\n" +
            heat_map_svg(charts);
    if (charts.operations_left_out > 0)
      html += "<p>The first " + std::to_string(charts.operations.size()) + " operations; " +
              std::to_string(charts.operations_left_out) + " more are left out.</p>\n";
  }
  if (any_parts(charts.communication))
    html += "<h2>Time in collective operations by rank</h2>\n"
            "<p class=\"what\">Calls that are collective operations (with a communicator and a "
            "sequence number): the steady state of the job.</p>\n" +
            bars_svg(charts.communication, charts.ranks, "communication-bars");
  if (any_parts(charts.other_communication))
    html += "<h2>Time in other communication calls by rank</h2>\n"
            "<p class=\"what\">Set-up, teardown and point-to-point calls, apart from the "
            "collective operations above.</p>\n" +
            bars_svg(charts.other_communication, charts.ranks, "other-communication-bars");
  if (!charts.steps.steps.empty()) {
    html += "<h2>Time of each step by rank</h2>\n" + step_chart_svg(charts.steps);
    if (charts.steps.steps.size() > kMaxChartSteps)
      html += "<p>The first " + std::to_string(kMaxChartSteps) + " steps; " +
              std::to_string(charts.steps.steps.size() - kMaxChartSteps) +
              " more are left out.</p>\n";
  }
  for (const StatsTable &table : tables)
    html += table_html(table);
  return html + kSortScript + "</body>\n</html>\n";
}

} // namespace prof::stats
