#include <prof/stats/html_page.hpp>

#include "html_charts.hpp"
#include "html_text.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace prof::stats {
namespace {

/// Rows of a table's section past this many are left out (the page of 4096
/// ranks stays small); CSV and JSON have them all.
constexpr size_t kMaxTableRows = 200;
/// Sections of a table past this many (one per process, per communicator)
/// are left out too.
constexpr size_t kMaxTableSections = 64;

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
  size_t sections = 0, left_out = 0;
  for (const Section &section : table.sections) {
    if (section.rows.empty()) continue;
    if (++sections > kMaxTableSections) {
      ++left_out;
      continue;
    }
    const std::vector<Column> &columns = table.columns_of(section);
    html +=
        "<h3>" + escaped(heading(section.title)) + "</h3>\n<table class=\"sortable\">\n<thead><tr>";
    for (const Column &column : columns)
      html +=
          "<th title=\"sort by " + escaped(column.title) + "\">" + escaped(column.title) + "</th>";
    html += "</tr></thead>\n<tbody>\n";
    const size_t shown = std::min(section.rows.size(), kMaxTableRows);
    for (size_t at = 0; at < shown; ++at) {
      const auto &row = section.rows[at];
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
    if (shown < section.rows.size())
      html += "<p class=\"left-out\">The first " + std::to_string(shown) + " rows of " +
              std::to_string(section.rows.size()) + "; --format csv has them all.</p>\n";
  }
  if (left_out > 0)
    html += "<p class=\"left-out\">The first " + std::to_string(kMaxTableSections) + " of " +
            std::to_string(sections) + " sections; --format csv has them all.</p>\n";
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

/// Each rank's total over its parts, -1 for a rank without any.
std::vector<int64_t> part_totals(const std::vector<std::vector<RankCharts::Part>> &by_rank) {
  std::vector<int64_t> totals;
  for (const auto &parts : by_rank) {
    int64_t total = parts.empty() ? -1 : 0;
    for (const RankCharts::Part &part : parts)
      total += static_cast<int64_t>(part.ns);
    totals.push_back(total);
  }
  return totals;
}

/// Each rank's (as charts.ranks) mean step time, -1 for a rank without steps.
std::vector<int64_t> mean_step_times(const RankCharts &charts) {
  std::map<std::string, size_t> row;
  for (size_t r = 0; r < charts.ranks.size(); ++r)
    row.emplace(charts.ranks[r], r);
  std::vector<uint64_t> sum(charts.ranks.size(), 0), count(charts.ranks.size(), 0);
  for (const StepTimes::Step &step : charts.steps.steps)
    for (const auto &[rank, ns] : step.times)
      if (const auto found = row.find(charts.steps.ranks[rank]); found != row.end()) {
        sum[found->second] += ns;
        ++count[found->second];
      }
  std::vector<int64_t> means(charts.ranks.size(), -1);
  for (size_t r = 0; r < means.size(); ++r)
    if (count[r] > 0) means[r] = static_cast<int64_t>(sum[r] / count[r]);
  return means;
}

/// A rank's label, its full label in a tooltip.
std::string rank_html(const RankCharts &charts, size_t r) {
  const std::string &full = charts.full_labels.empty() ? charts.ranks[r] : charts.full_labels[r];
  return "<span title=\"" + escaped(full) + "\">" + escaped(charts.ranks[r]) + "</span>";
}

/// The top of the page: the nodes and ranks that differ from the rest, a
/// line per finding (each names them first).
std::string outliers_html(const RankCharts &charts) {
  if (charts.outlier_findings.empty()) return {};
  std::string html = "<section id=\"outliers\">\n<h2>Ranks and nodes worth a look</h2>\n<ul>\n";
  for (const std::string &finding : charts.outlier_findings)
    html += "<li class=\"finding\">" + escaped(finding) + "</li>\n";
  return html + "</ul>\n</section>\n";
}

/// The operations whose ranks arrived furthest apart, as a sortable table.
std::string skewed_html(const RankCharts &charts) {
  if (charts.most_skewed.empty()) return {};
  std::string html = "<h3>The operations with the largest skew</h3>\n<table class=\"sortable\" "
                     "id=\"most-skewed\">\n<thead><tr><th>Operation</th><th>Skew</th><th>Last "
                     "to arrive</th><th>Ranks</th></tr></thead>\n<tbody>\n";
  for (const RankCharts::SkewedOperation &op : charts.most_skewed)
    html += "<tr><td>" + escaped(op.name) + "</td><td class=\"n\" data-v=\"" +
            std::to_string(op.skew) + "\">" + format_duration(op.skew) + "</td><td>" +
            (op.last_rank < charts.ranks.size() ? rank_html(charts, op.last_rank) : "-") +
            "</td><td class=\"n\" data-v=\"" + std::to_string(op.ranks) + "\">" +
            std::to_string(op.ranks) + "</td></tr>\n";
  return html + "</tbody>\n</table>\n";
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
  html += outliers_html(charts);
  if (!charts.operations.empty()) {
    html += "<h2>How late each rank came to the collective operations</h2>\n";
    if (charts.mean_lateness.size() == charts.ranks.size() && charts.ranks.size() > 2)
      html +=
          "<p class=\"what\">Each rank's mean lateness over the " +
          std::to_string(std::max(charts.operation_count, charts.operations.size())) +
          " operations matched across ranks: how long after the first rank it came.</p>\n" +
          distribution_svg("lateness-distribution", "mean lateness", charts.mean_lateness, charts);
    html += std::string("<p class=\"what\">") +
            (charts.ranks.size() > kMaxRankRows
                 ? "A row per outlier rank, then a row per group of nodes"
                 : "A row per rank, the ranks of a node together") +
            "; a column per operation matched across ranks (by communicator, in sequence) or "
            "run of them: how long after the first rank each came to it. Hover a cell for the "
            "operation, the time and the rank.</p>\n" +
            heat_map_svg(charts) + skewed_html(charts);
    if (charts.narrow_operations > 0)
      html += "<p class=\"left-out\">Left out of these charts: " +
              std::to_string(charts.narrow_operations) + " operations on " +
              std::to_string(charts.narrow_communicators) +
              " communicators of fewer than half the ranks of the widest (the tables below "
              "have them).</p>\n";
  }
  if (charts.ranks.size() > kMaxRankRows) {
    if (any_parts(charts.communication))
      html += "<h2>Time in collective operations by rank</h2>\n" +
              distribution_svg("communication-distribution", "time in collective operations",
                               part_totals(charts.communication), charts);
    if (any_parts(charts.other_communication))
      html += "<h2>Time in other communication calls by rank</h2>\n" +
              distribution_svg("other-communication-distribution", "time in other calls",
                               part_totals(charts.other_communication), charts);
  } else {
    if (any_parts(charts.communication))
      html += "<h2>Time in collective operations by rank</h2>\n"
              "<p class=\"what\">Calls that are collective operations (with a communicator and "
              "a sequence number): the steady state of the job.</p>\n" +
              bars_svg(charts.communication, charts.ranks, "communication-bars");
    if (any_parts(charts.other_communication))
      html += "<h2>Time in other communication calls by rank</h2>\n"
              "<p class=\"what\">Set-up, teardown and point-to-point calls, apart from the "
              "collective operations above.</p>\n" +
              bars_svg(charts.other_communication, charts.ranks, "other-communication-bars");
  }
  if (!charts.steps.steps.empty()) {
    html += "<h2>Time of each step by rank</h2>\n";
    if (charts.steps.ranks.size() > kLegendRanks)
      html +=
          distribution_svg("step-distribution", "mean step time", mean_step_times(charts), charts);
    std::vector<std::string> highlighted;
    for (const size_t r : charts.outlier_ranks)
      if (r < charts.ranks.size()) highlighted.push_back(charts.ranks[r]);
    html += step_chart_svg(charts.steps, highlighted);
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
