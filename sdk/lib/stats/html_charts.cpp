#include "html_charts.hpp"
#include "html_text.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace prof::stats {
namespace {

constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

constexpr int kRowHeight = 18, kChartWidth = 760;
constexpr int kAxisWidth = 80, kPlotHeight = 240;

} // namespace

std::string bars_svg(const std::vector<std::vector<RankCharts::Part>> &by_rank,
                     const std::vector<std::string> &ranks, const std::string &id) {
  const int label_width = rank_label_width(ranks);
  uint64_t longest = 0;
  std::map<std::string, std::string> colors;
  for (const auto &parts : by_rank) {
    uint64_t total = 0;
    for (const RankCharts::Part &part : parts) {
      total += part.ns;
      if (!colors.count(part.name))
        colors[part.name] = kPalette[colors.size() % std::size(kPalette)];
    }
    longest = std::max(longest, total);
  }
  // Many ranks: thinner bars, and a label every few of them.
  const int row = std::clamp(720 / std::max<int>(1, static_cast<int>(ranks.size())), 3, kRowHeight);
  const int every = (13 + row - 1) / row;
  const int height =
      static_cast<int>(ranks.size()) * row + static_cast<int>(colors.size()) * kRowHeight + 30;
  std::string svg = "<svg id=\"" + escaped(id) +
                    "\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(label_width + kChartWidth + 100) + "\" height=\"" +
                    std::to_string(height) + "\">\n";
  for (size_t r = 0; r < ranks.size(); ++r) {
    const int y = static_cast<int>(r) * row;
    if (static_cast<int>(r) % every == 0)
      svg += "<text class=\"rank-label\" x=\"" + std::to_string(label_width - 6) + "\" y=\"" +
             std::to_string(y + row / 2 + 4) + "\" text-anchor=\"end\">" +
             escaped(fitted_label(ranks[r], label_width)) + "</text>\n";
    double x = label_width;
    uint64_t total = 0;
    for (const RankCharts::Part &part : by_rank[r]) {
      const double w =
          longest ? kChartWidth * static_cast<double>(part.ns) / static_cast<double>(longest) : 0;
      svg += "<rect class=\"part\" x=\"" + number(x) + "\" y=\"" + std::to_string(y) +
             "\" width=\"" + number(w) + "\" height=\"" + std::to_string(std::max(1, row - 2)) +
             "\" fill=\"" + colors[part.name] + "\"><title>" + escaped(ranks[r]) + ": " +
             escaped(part.name) + " " + format_duration(part.ns) + "</title></rect>\n";
      x += w;
      total += part.ns;
    }
    if (row >= 12)
      svg += "<text x=\"" + number(x + 6) + "\" y=\"" + std::to_string(y + 13) + "\">" +
             format_duration(total) + "</text>\n";
  }
  int y = static_cast<int>(ranks.size()) * row + 16;
  for (const auto &[name, color] : colors) {
    svg += "<rect x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y) +
           "\" width=\"12\" height=\"12\" fill=\"" + color + "\"/><text x=\"" +
           std::to_string(label_width + 18) + "\" y=\"" + std::to_string(y + 11) + "\">" +
           escaped(name) + "</text>\n";
    y += kRowHeight;
  }
  return svg + "</svg>\n";
}

std::string step_chart_svg(const StepTimes &times, const std::vector<std::string> &highlighted) {
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
  // A legend row per rank up to kLegendRanks; past that, the lines' tooltips name them.
  const bool legend_rows = times.ranks.size() <= kLegendRanks;
  const int legend = 10 + kPlotHeight + 36;
  const int height =
      legend + (legend_rows ? static_cast<int>(times.ranks.size()) : 1) * kRowHeight + 8;
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
  const std::set<std::string> marked(highlighted.begin(), highlighted.end());
  if (!legend_rows) {
    // Many ranks: each step's median, 90th percentile and slowest, as lines.
    const char *names[] = {"median", "90th percentile", "slowest"};
    const char *colors[] = {"#4e79a7", "#f28e2b", "#555"};
    const double shares[] = {0.5, 0.9, 1.0};
    for (size_t k = 0; k < 3; ++k) {
      std::string line;
      for (size_t i = 0; i < shown; ++i) {
        std::vector<uint64_t> ns;
        for (const auto &[rank, t] : times.steps[i].times)
          ns.push_back(t);
        if (ns.empty()) continue;
        const size_t at =
            static_cast<size_t>(std::ceil(shares[k] * static_cast<double>(ns.size()))) - 1;
        std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(at), ns.end());
        line += (line.empty() ? "" : " ") + number(x(i)) + "," + number(y(ns[at]));
      }
      svg += "<polyline class=\"step-percentile\" fill=\"none\" stroke=\"" +
             std::string(colors[k]) + "\" stroke-dasharray=\"" + (k == 2 ? "4 3" : "none") +
             "\" points=\"" + line + "\"><title>" + names[k] + " of the ranks</title></polyline>\n";
    }
  }
  size_t drawn = 0;
  for (size_t r = 0; r < times.ranks.size(); ++r) {
    if (!legend_rows && !marked.count(times.ranks[r])) continue;
    const std::string color = legend_rows ? kPalette[r % std::size(kPalette)] : "#b30000";
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
    ++drawn;
    if (!legend_rows) continue;
    const int row = legend + static_cast<int>(r) * kRowHeight;
    svg += "<rect x=\"" + left + "\" y=\"" + std::to_string(row) +
           "\" width=\"12\" height=\"12\" fill=\"" + color + "\"/><text x=\"" +
           std::to_string(kAxisWidth + 18) + "\" y=\"" + std::to_string(row + 11) + "\">" +
           escaped(times.ranks[r]) + "</text>\n";
  }
  if (!legend_rows)
    svg +=
        "<text x=\"" + left + "\" y=\"" + std::to_string(legend + 11) + "\">" +
        std::to_string(times.ranks.size()) +
        " ranks: each step's median (blue), 90th percentile (orange) and slowest (grey, "
        "dashed)" +
        (drawn > 0 ? "; in red the " + std::to_string(drawn) + " outlier ranks" : std::string()) +
        "</text>\n";
  return svg + "</svg>\n";
}

} // namespace prof::stats
