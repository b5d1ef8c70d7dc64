#include "html_charts.hpp"
#include "html_text.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace prof::stats {
namespace {

constexpr double kPlotWidth = 960, kPlotHeight = 720;
constexpr double kMinCellWidth = 6, kMaxCellWidth = 28;
constexpr double kMinRowHeight = 3, kMaxRowHeight = 22;
constexpr double kLabelLineHeight = 13; ///< a rank label's height: labels closer are thinned
constexpr int kTop = 8;

/// White for on time, red from `scale` on; grey for a rank not in it.
std::string lateness_color(int64_t late, int64_t scale) {
  if (late < 0) return "#d9d9d9";
  const double share =
      scale > 0 ? std::min(1.0, static_cast<double>(late) / static_cast<double>(scale)) : 0;
  const int other = static_cast<int>(std::lround(255 * (1 - share)));
  char text[16];
  std::snprintf(text, sizeof text, "#ff%02x%02x", other, other);
  return text;
}

/// The lateness that is full red: the 95th percentile of the positive ones,
/// so that one rank held up once does not leave every other cell white.
int64_t color_scale(const RankCharts &charts) {
  std::vector<int64_t> late;
  for (const auto &row : charts.lateness)
    for (const int64_t ns : row)
      if (ns > 0) late.push_back(ns);
  if (late.empty()) return 0;
  const size_t at = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(late.size()))) - 1;
  std::nth_element(late.begin(), late.begin() + static_cast<std::ptrdiff_t>(at), late.end());
  return late[at];
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
  const size_t ranks = charts.ranks.size();
  // Operations per column: as few as let every column be wide enough.
  const auto most_columns = static_cast<size_t>(kPlotWidth / kMinCellWidth);
  const size_t per_column = (operations + most_columns - 1) / most_columns;
  const size_t columns = (operations + per_column - 1) / per_column;
  const double cell =
      std::clamp(kPlotWidth / static_cast<double>(columns), kMinCellWidth, kMaxCellWidth);
  const double row =
      std::clamp(kPlotHeight / static_cast<double>(ranks), kMinRowHeight, kMaxRowHeight);
  const int label_width = rank_label_width(charts.ranks);
  const double left = label_width + 22; // the rank axis' title, then the labels
  const double plot_width = cell * static_cast<double>(columns);
  const double plot_bottom = kTop + row * static_cast<double>(ranks);
  const int64_t scale = color_scale(charts);
  int64_t latest = 0;
  for (const auto &line : charts.lateness)
    for (const int64_t ns : line)
      latest = std::max(latest, ns);

  std::string cells;
  for (size_t r = 0; r < ranks; ++r) {
    const double y = kTop + row * static_cast<double>(r);
    for (size_t c = 0; c < columns; ++c) {
      const size_t first = c * per_column, last = std::min(operations, first + per_column) - 1;
      int64_t late = -1;
      for (size_t op = first; op <= last; ++op)
        late = std::max(late, charts.lateness[r][op]);
      const std::string what = first == last ? charts.operations[first]
                                             : "operations " + std::to_string(first + 1) + " to " +
                                                   std::to_string(last + 1);
      const std::string when = late < 0 ? std::string("not in it")
                                        : (first == last ? "" : "at worst ") +
                                              format_duration(static_cast<uint64_t>(late)) +
                                              " after the first";
      cells += "<rect class=\"cell\" x=\"" + number(left + cell * static_cast<double>(c)) +
               "\" y=\"" + number(y) + "\" width=\"" + number(std::max(1.0, cell - 1)) +
               "\" height=\"" + number(std::max(1.0, row - (row > 6 ? 1 : 0))) + "\" fill=\"" +
               lateness_color(late, scale) + "\"><title>" + escaped(charts.ranks[r]) + ", " +
               escaped(what) + ": " + when + "</title></rect>\n";
    }
  }

  std::string axes;
  // Rank labels, thinned to one every `every` rows so that none overlap.
  const auto every = static_cast<size_t>(std::ceil(kLabelLineHeight / row));
  for (size_t r = 0; r < ranks; r += every)
    axes += text_at(left - 6, kTop + row * (static_cast<double>(r) + 0.5) + 4,
                    fitted_label(charts.ranks[r], label_width), "end", " class=\"rank-label\"");
  axes += text_at(12, kTop + (plot_bottom - kTop) / 2, "rank", "middle",
                  " class=\"axis-title\" transform=\"rotate(-90 12 " +
                      number(kTop + (plot_bottom - kTop) / 2) + ")\"");
  // Operation numbers (1 is the first in the order) at round steps 70 pixels apart or more.
  const double pixels_per_operation = cell / static_cast<double>(per_column);
  const size_t step = round_step(70 / pixels_per_operation);
  axes += "<line x1=\"" + number(left) + "\" y1=\"" + number(plot_bottom + 1) + "\" x2=\"" +
          number(left + plot_width) + "\" y2=\"" + number(plot_bottom + 1) +
          "\" stroke=\"#999\"/>\n";
  for (size_t op = 1; op <= operations; op = op == 1 && step > 1 ? step : op + step) {
    const double x = left + pixels_per_operation * (static_cast<double>(op) - 0.5);
    axes += "<line x1=\"" + number(x) + "\" y1=\"" + number(plot_bottom + 1) + "\" x2=\"" +
            number(x) + "\" y2=\"" + number(plot_bottom + 5) + "\" stroke=\"#999\"/>\n" +
            text_at(x, plot_bottom + 17, std::to_string(op), "middle", " class=\"op-label\"");
  }
  axes += text_at(left + plot_width / 2, plot_bottom + 34,
                  "collective operation (by communicator, in sequence)", "middle",
                  " class=\"axis-title\"");

  // The legend: the scale from on time to full red, and grey.
  const double legend_y = plot_bottom + 48;
  std::string legend = "<defs><linearGradient id=\"lateness-scale\"><stop offset=\"0\" "
                       "stop-color=\"#ffffff\"/><stop offset=\"1\" stop-color=\"#ff0000\"/>"
                       "</linearGradient></defs>\n<g class=\"legend\">\n";
  legend += text_at(left, legend_y + 11, "after the first to arrive:", "start");
  const double bar_x = left + 170;
  legend += "<rect x=\"" + number(bar_x) + "\" y=\"" + number(legend_y) +
            "\" width=\"200\" height=\"12\" fill=\"url(#lateness-scale)\" stroke=\"#999\"/>\n";
  legend += text_at(bar_x, legend_y + 26, "0", "start");
  legend += text_at(
      bar_x + 200, legend_y + 26,
      (latest > scale ? "\u2265 " : "") + format_duration(static_cast<uint64_t>(scale)), "end");
  legend += "<rect x=\"" + number(bar_x + 220) + "\" y=\"" + number(legend_y) +
            "\" width=\"12\" height=\"12\" fill=\"#d9d9d9\"/>\n" +
            text_at(bar_x + 238, legend_y + 11, "not in the operation", "start");
  const std::string note = "latest: " + format_duration(static_cast<uint64_t>(latest)) +
                           " after the first" +
                           (per_column > 1 ? "; a column is " + std::to_string(per_column) +
                                                 " operations, showing the latest of them"
                                           : std::string());
  legend += text_at(left, legend_y + 44, note, "start");
  legend += "</g>\n";
  const double legend_right =
      std::max(bar_x + 238 + 140, left + 7.0 * static_cast<double>(note.size()));
  const double width = std::max(left + plot_width + 12, legend_right + 12);
  const double height = legend_y + 54;
  return "<svg id=\"lateness-heatmap\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
         "width=\"" +
         number(width) + "\" height=\"" + number(height) + "\">\n" + legend + cells + axes +
         "</svg>\n";
}

} // namespace prof::stats
