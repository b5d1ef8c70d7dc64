#include "html_charts.hpp"
#include "html_text.hpp"
#include "lateness_scale.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace prof::stats {
namespace {

constexpr double kPlotWidth = 960, kPlotHeight = 720;
constexpr double kMinCellWidth = 6, kMaxCellWidth = 28;
constexpr double kMinRowHeight = 3, kMaxRowHeight = 22, kOutlierRowHeight = 14;
constexpr double kLabelLineHeight = 13; ///< a rank label's height: labels closer are thinned
constexpr double kGroupGap = 10;        ///< between the outliers' rows and the groups'
constexpr int kTop = 8;
/// Rows of groups at most: each tall enough for its label (48 x 13 < 720).
constexpr size_t kMaxGroupRows = 48;

/// A row of the heat map: one rank, or a group of them (whole nodes).
struct HeatRow {
  std::string label, title;
  std::vector<size_t> members;
  bool outlier = false;
  double y = 0, height = 0;
};

std::string group_label(const RankCharts &charts, const std::vector<size_t> &members) {
  const size_t first = members.front(), last = members.back();
  const std::string count = " (" + std::to_string(members.size()) + " ranks)";
  if (!charts.nodes.empty() && !charts.nodes[first].empty())
    return charts.nodes[first] == charts.nodes[last]
               ? charts.nodes[first] + count
               : charts.nodes[first] + " \u2026 " + charts.nodes[last] + count;
  return charts.ranks[first] + " \u2026 " + charts.ranks[last] + count;
}

/// A row per rank when they fit; else the outliers' rows, then the other
/// ranks in groups of whole nodes (or of consecutive ranks), about
/// kMaxGroupRows rows in all.
std::vector<HeatRow> heat_rows(const RankCharts &charts) {
  const size_t ranks = charts.ranks.size();
  const std::set<size_t> outliers(charts.outlier_ranks.begin(), charts.outlier_ranks.end());
  std::vector<HeatRow> rows;
  const auto title_of = [&charts](size_t r) {
    return charts.full_labels.empty() ? charts.ranks[r] : charts.full_labels[r];
  };
  if (ranks <= kMaxRankRows) {
    for (size_t r = 0; r < ranks; ++r)
      rows.push_back({charts.ranks[r], title_of(r), {r}, outliers.count(r) != 0});
    return rows;
  }
  for (const size_t r : charts.outlier_ranks)
    if (r < ranks && rows.size() < kMaxGroupRows / 2)
      rows.push_back({charts.ranks[r], title_of(r), {r}, true});
  std::vector<size_t> rest;
  for (size_t r = 0; r < ranks; ++r)
    if (!outliers.count(r)) rest.push_back(r);
  const size_t room = kMaxGroupRows - rows.size();
  const size_t size = (rest.size() + room - 1) / room;
  std::vector<size_t> group;
  const auto close = [&] {
    if (group.empty()) return;
    const std::string label = group_label(charts, group);
    rows.push_back({label, label, std::move(group), false});
    group.clear();
  };
  for (size_t i = 0; i < rest.size();) {
    // The next node's ranks (or the next rank, without nodes) join the group whole.
    size_t end = i + 1;
    if (!charts.nodes.empty())
      while (end < rest.size() && charts.nodes[rest[end]] == charts.nodes[rest[i]])
        ++end;
    if (!group.empty() && group.size() + (end - i) > size) close();
    for (; i < end; ++i)
      group.push_back(rest[i]);
  }
  close();
  return rows;
}

/// 1, 2 or 5 times a power of ten, at least `at_least`.
size_t round_step(double at_least) {
  size_t power = 1;
  for (;;) {
    for (const size_t m : {1, 2, 5})
      if (static_cast<double>(m * power) >= at_least) return m * power;
    power *= 10;
  }
}

std::string text_at(double x, double y, const std::string &text, const char *anchor,
                    const std::string &extra = "") {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + escaped(text) + "</text>\n";
}

} // namespace

int rank_label_width(const std::vector<std::string> &ranks) {
  size_t longest = 0;
  for (const std::string &rank : ranks)
    longest = std::max(longest, rank.size());
  return std::clamp(static_cast<int>(longest) * 7 + 12, 60, 320);
}

std::string fitted_label(const std::string &label, int width) {
  const size_t fits = static_cast<size_t>(std::max(4, (width - 12) / 7));
  return label.size() <= fits ? label : label.substr(0, fits - 1) + "\u2026";
}

std::string heat_map_svg(const RankCharts &charts) {
  const size_t operations = charts.operations.size();
  const size_t total = std::max(charts.operation_count, operations);
  // Operations per column: as few as let every column be wide enough.
  const auto most_columns = static_cast<size_t>(kPlotWidth / kMinCellWidth);
  const size_t per_column = (operations + most_columns - 1) / most_columns;
  const size_t columns = (operations + per_column - 1) / per_column;
  const size_t column_operations = per_column * charts.operations_per_column;
  const double cell =
      std::clamp(kPlotWidth / static_cast<double>(columns), kMinCellWidth, kMaxCellWidth);

  std::vector<HeatRow> rows = heat_rows(charts);
  const bool grouped = rows.size() < charts.ranks.size();
  size_t outlier_rows = 0;
  for (const HeatRow &r : rows)
    outlier_rows += grouped && r.outlier ? 1 : 0;
  const double gap = outlier_rows > 0 ? kGroupGap : 0;
  const double row =
      std::clamp((kPlotHeight - gap - kOutlierRowHeight * static_cast<double>(outlier_rows)) /
                     static_cast<double>(std::max<size_t>(1, rows.size() - outlier_rows)),
                 kMinRowHeight, kMaxRowHeight);
  double y = kTop;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i == outlier_rows && outlier_rows > 0) y += gap;
    rows[i].y = y;
    rows[i].height = i < outlier_rows ? std::max(row, kOutlierRowHeight) : row;
    y += rows[i].height;
  }
  std::vector<std::string> labels;
  for (const HeatRow &r : rows)
    labels.push_back(r.label);
  const int label_width = rank_label_width(labels);
  const double left = label_width + 22; // the rank axis' title, then the labels
  const double plot_width = cell * static_cast<double>(columns);
  const double plot_bottom = y;
  // What each cell shows: the latest of its ranks and operations, and which rank that was.
  std::vector<std::vector<int64_t>> shown(rows.size(), std::vector<int64_t>(columns, -1));
  std::vector<std::vector<size_t>> latest_rank(rows.size(), std::vector<size_t>(columns, 0));
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t c = 0; c < columns; ++c) {
      const size_t first = c * per_column, last = std::min(operations, first + per_column) - 1;
      latest_rank[i][c] = rows[i].members.front();
      for (const size_t m : rows[i].members)
        for (size_t op = first; op <= last; ++op)
          if (charts.lateness[m][op] > shown[i][c]) {
            shown[i][c] = charts.lateness[m][op];
            latest_rank[i][c] = m;
          }
    }
  // Set from what the cells show, so that a row of many ranks is not tinted
  // by the jitter of the latest of them, and from the rows that are not outliers.
  std::vector<bool> outlier_row;
  for (const HeatRow &r : rows)
    outlier_row.push_back(r.outlier);
  const LatenessScale scale = lateness_scale(shown, outlier_row);

  // Cells within the scale's white are not drawn: the plot's background is white.
  std::string cells = "<rect class=\"plot\" x=\"" + number(left) + "\" y=\"" + number(kTop) +
                      "\" width=\"" + number(plot_width) + "\" height=\"" +
                      number(plot_bottom - kTop) + "\" fill=\"#fff\" stroke=\"#ccc\"/>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const HeatRow &r = rows[i];
    for (size_t c = 0; c < columns; ++c) {
      const size_t first = c * per_column, last = std::min(operations, first + per_column) - 1;
      const int64_t late = shown[i][c];
      const size_t who = latest_rank[i][c];
      const std::string color = scale.color(late);
      if (color.empty()) continue;
      const size_t first_op = first * charts.operations_per_column;
      const size_t last_op = std::min(total, (last + 1) * charts.operations_per_column) - 1;
      const std::string what = per_column == 1 ? charts.operations[first]
                                               : "operations " + std::to_string(first_op + 1) +
                                                     " to " + std::to_string(last_op + 1);
      std::string when = late < 0 ? std::string("not in it")
                                  : (first_op == last_op ? "" : "at worst ") +
                                        format_duration(static_cast<uint64_t>(late)) +
                                        " after the first";
      if (late >= 0 && r.members.size() > 1) when += " (" + charts.ranks[who] + ")";
      cells += "<rect class=\"cell" + std::string(r.outlier ? " outlier" : "") + "\" x=\"" +
               number(left + cell * static_cast<double>(c)) + "\" y=\"" + number(r.y) +
               "\" width=\"" + number(std::max(1.0, cell - 1)) + "\" height=\"" +
               number(std::max(1.0, r.height - (r.height > 6 ? 1 : 0))) + "\" fill=\"" + color +
               "\"><title>" + escaped(r.title) + ", " + escaped(what) + ": " + escaped(when) +
               "</title></rect>\n";
    }
  }

  std::string axes;
  // Row labels, thinned so that none overlap, the outliers' first; full
  // labels in their tooltips; a line between nodes.
  std::vector<double> labelled; // the middles of the rows labelled
  const auto label = [&](const HeatRow &r) {
    const double middle = r.y + r.height / 2;
    for (const double other : labelled)
      if (std::abs(other - middle) < kLabelLineHeight) return;
    labelled.push_back(middle);
    axes += "<text class=\"rank-label" + std::string(r.outlier ? " outlier" : "") + "\" x=\"" +
            number(left - 6) + "\" y=\"" + number(middle + 4) + "\" text-anchor=\"end\"" +
            (r.outlier ? " font-weight=\"bold\" fill=\"#b30000\"" : "") + "><title>" +
            escaped(r.title) + "</title>" + escaped(fitted_label(r.label, label_width)) +
            "</text>\n";
  };
  for (const HeatRow &r : rows)
    if (r.outlier) label(r);
  for (size_t i = 0; i < rows.size(); ++i) {
    const HeatRow &r = rows[i];
    if (!r.outlier) label(r);
    if (!grouped && i > 0 && !charts.nodes.empty() &&
        charts.nodes[r.members.front()] != charts.nodes[rows[i - 1].members.front()])
      axes += "<line class=\"node-line\" x1=\"" + number(left) + "\" y1=\"" + number(r.y) +
              "\" x2=\"" + number(left + plot_width) + "\" y2=\"" + number(r.y) +
              "\" stroke=\"#888\"/>\n";
  }
  const double middle = kTop + (plot_bottom - kTop) / 2;
  axes += text_at(12, middle,
                  outlier_rows > 0 ? "outlier ranks, then the others by node"
                  : grouped        ? "ranks by node"
                                   : (charts.nodes.empty() ? "rank" : "rank, by node"),
                  "middle",
                  " class=\"axis-title\" transform=\"rotate(-90 12 " + number(middle) + ")\"");
  // Operation numbers (1 is the first in the order) at round steps 70 pixels apart or more.
  const double pixels_per_operation = cell / static_cast<double>(column_operations);
  const size_t step = round_step(70 / pixels_per_operation);
  axes += "<line x1=\"" + number(left) + "\" y1=\"" + number(plot_bottom + 1) + "\" x2=\"" +
          number(left + plot_width) + "\" y2=\"" + number(plot_bottom + 1) +
          "\" stroke=\"#999\"/>\n";
  for (size_t op = 1; op <= total; op = op == 1 && step > 1 ? step : op + step) {
    const double x = left + pixels_per_operation * (static_cast<double>(op) - 0.5);
    axes += "<line x1=\"" + number(x) + "\" y1=\"" + number(plot_bottom + 1) + "\" x2=\"" +
            number(x) + "\" y2=\"" + number(plot_bottom + 5) + "\" stroke=\"#999\"/>\n" +
            text_at(x, plot_bottom + 17, std::to_string(op), "middle", " class=\"op-label\"");
  }
  axes += text_at(left + plot_width / 2, plot_bottom + 34,
                  "collective operation (by communicator, in sequence)", "middle",
                  " class=\"axis-title\"");

  // The legend: the scale, grey, and what a cell and a row hold.
  const double legend_y = plot_bottom + 48;
  std::string legend = "<g class=\"legend\">\n" + scale.legend_svg(left, legend_y);
  std::string note =
      "latest: " + format_duration(static_cast<uint64_t>(scale.latest)) + " after the first";
  if (column_operations > 1)
    note += "; a column is " + std::to_string(column_operations) +
            " operations, showing the latest of them";
  if (grouped) note += "; a row of several ranks shows the latest of them";
  const std::string white =
      "white: ordinary jitter (no later than 9 in 10 of the other rows' cells, at most 4 times "
      "their median)";
  legend += text_at(left, legend_y + 44, note, "start");
  legend += text_at(left, legend_y + 60, white, "start");
  legend += "</g>\n";
  const double legend_right = std::max(
      left + kLegendWidth, left + 7.0 * static_cast<double>(std::max(note.size(), white.size())));
  const double width = std::max(left + plot_width + 12, legend_right + 12);
  const double height = legend_y + 70;
  return "<svg id=\"lateness-heatmap\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
         "width=\"" +
         number(width) + "\" height=\"" + number(height) + "\">\n" + legend + cells + axes +
         "</svg>\n";
}

} // namespace prof::stats
