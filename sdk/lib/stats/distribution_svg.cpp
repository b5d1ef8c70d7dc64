#include "html_charts.hpp"
#include "html_text.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace prof::stats {
namespace {

constexpr double kCurveWidth = 480, kHistogramWidth = 300, kHeight = 200;
constexpr double kLeft = 70, kTop = 24, kPanelGap = 70;
constexpr size_t kBins = 12;
constexpr const char *kColor = "#4e79a7", *kOutlierColor = "#b30000";

std::string text_at(double x, double y, const std::string &text, const char *anchor,
                    const std::string &extra = "") {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + escaped(text) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string &extra) {
  return "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
         "\" y2=\"" + number(y2) + "\" " + extra + "/>\n";
}

} // namespace

std::string distribution_svg(const std::string &id, const std::string &what,
                             const std::vector<int64_t> &values, const RankCharts &charts) {
  std::vector<size_t> order; // ranks with a value, by it
  for (size_t r = 0; r < values.size() && r < charts.ranks.size(); ++r)
    if (values[r] >= 0) order.push_back(r);
  if (order.empty()) return {};
  std::stable_sort(order.begin(), order.end(),
                   [&values](size_t a, size_t b) { return values[a] < values[b]; });
  const size_t n = order.size();
  const int64_t top = std::max<int64_t>(1, values[order.back()]);
  const auto at = [&](double share) {
    return values[order[static_cast<size_t>(std::ceil(share * static_cast<double>(n))) - 1]];
  };
  const auto ns = [](int64_t v) { return format_duration(static_cast<uint64_t>(v)); };
  const double bottom = kTop + kHeight;
  const auto x_of = [n](size_t i) {
    return kLeft + (n > 1 ? kCurveWidth * static_cast<double>(i) / static_cast<double>(n - 1)
                          : kCurveWidth / 2);
  };
  const auto y_of = [top, bottom](int64_t v) {
    return bottom - kHeight * static_cast<double>(v) / static_cast<double>(top);
  };
  const double hist_left = kLeft + kCurveWidth + kPanelGap;
  const double width = hist_left + kHistogramWidth + 20;
  std::string svg = "<svg id=\"" + escaped(id) +
                    "\" class=\"chart distribution\" xmlns=\"http://www.w3.org/2000/svg\" "
                    "width=\"" +
                    number(width) + "\" height=\"" + number(bottom + 62) + "\">\n";

  // How many ranks in each of kBins equal ranges from the lowest to the
  // highest, for the right panel.
  const int64_t low = values[order.front()], span = std::max<int64_t>(1, top - low);
  const std::set<size_t> outliers(charts.outlier_ranks.begin(), charts.outlier_ranks.end());
  std::vector<size_t> bins(kBins, 0);
  std::vector<bool> outlier_bins(kBins, false); // drawn red: it holds an outlier rank
  for (const size_t r : order) {
    const size_t b = std::min(kBins - 1, static_cast<size_t>(static_cast<double>(values[r] - low) /
                                                             static_cast<double>(span) * kBins));
    ++bins[b];
    if (outliers.count(r)) outlier_bins[b] = true;
  }
  // Left: the ranks sorted by the value, percentiles marked.
  svg += text_at(kLeft, 14, "ranks sorted by " + what, "start", " class=\"panel-title\"");
  svg += line(kLeft, kTop, kLeft, bottom, "stroke=\"#999\"") +
         line(kLeft, bottom, kLeft + kCurveWidth, bottom, "stroke=\"#999\"");
  svg += text_at(kLeft - 6, kTop + 8, ns(top), "end") + text_at(kLeft - 6, bottom, "0", "end");
  for (const auto &[share, name] : {std::pair{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}}) {
    const double x = kLeft + kCurveWidth * share;
    svg += line(x, kTop, x, bottom, "stroke=\"#bbb\" stroke-dasharray=\"3 3\"") +
           text_at(x, bottom + 14, name, "middle", " class=\"percentile\"");
  }
  // A point per pixel at most: the curve is sorted, so the samples keep its shape.
  const size_t points = std::min<size_t>(n, static_cast<size_t>(kCurveWidth));
  std::string curve;
  for (size_t k = 0; k < points; ++k) {
    const size_t i = points > 1 ? k * (n - 1) / (points - 1) : 0;
    curve += (curve.empty() ? "" : " ") + number(x_of(i)) + "," + number(y_of(values[order[i]]));
  }
  svg += "<polyline class=\"sorted\" fill=\"none\" stroke=\"" + std::string(kColor) +
         "\" stroke-width=\"2\" points=\"" + curve + "\"/>\n";
  for (size_t i = 0; i < n; ++i)
    if (outliers.count(order[i]))
      svg += "<circle class=\"outlier\" cx=\"" + number(x_of(i)) + "\" cy=\"" +
             number(y_of(values[order[i]])) + "\" r=\"4\" fill=\"" + kOutlierColor + "\"><title>" +
             escaped(charts.ranks[order[i]]) + ": " + ns(values[order[i]]) + "</title></circle>\n";
  svg += text_at(kLeft + kCurveWidth / 2, bottom + 30, "ranks, lowest to highest", "middle");

  const size_t most = *std::max_element(bins.begin(), bins.end());
  const double bin_width = kHistogramWidth / kBins;
  svg += text_at(hist_left, 14, "ranks by " + what + " (count, log scale)", "start",
                 " class=\"panel-title\"");
  svg += line(hist_left, bottom, hist_left + kHistogramWidth, bottom, "stroke=\"#999\"");
  for (size_t b = 0; b < kBins; ++b) {
    if (bins[b] == 0) continue;
    const double h = 14 + (kHeight - 30) * std::log1p(static_cast<double>(bins[b])) /
                              std::log1p(static_cast<double>(most));
    const double x = hist_left + bin_width * static_cast<double>(b);
    svg +=
        "<rect class=\"bin\" x=\"" + number(x + 1) + "\" y=\"" + number(bottom - h) +
        "\" width=\"" + number(bin_width - 2) + "\" height=\"" + number(h) + "\" fill=\"" +
        (outlier_bins[b] ? kOutlierColor : kColor) + "\"><title>" + std::to_string(bins[b]) +
        " ranks, " +
        ns(low + static_cast<int64_t>(static_cast<double>(span) * static_cast<double>(b) / kBins)) +
        " to " +
        ns(low +
           static_cast<int64_t>(static_cast<double>(span) * static_cast<double>(b + 1) / kBins)) +
        "</title></rect>\n" +
        text_at(x + bin_width / 2, bottom - h - 3, std::to_string(bins[b]), "middle",
                " class=\"count\" font-size=\"10\"");
  }
  svg += text_at(hist_left, bottom + 14, ns(low), "start") +
         text_at(hist_left + kHistogramWidth, bottom + 14, ns(top), "end");
  svg += text_at(hist_left + kHistogramWidth / 2, bottom + 30, what, "middle");

  svg +=
      text_at(kLeft, bottom + 52,
              std::to_string(n) + " ranks: p50 " + ns(at(0.5)) + ", p90 " + ns(at(0.9)) + ", p99 " +
                  ns(at(0.99)) + ", highest " + ns(top) + " (" + charts.ranks[order.back()] + ")",
              "start", " class=\"summary\"");
  return svg + "</svg>\n";
}

} // namespace prof::stats
