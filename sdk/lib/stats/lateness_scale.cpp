#include "lateness_scale.hpp"

#include "html_text.hpp"

#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace prof::stats {
namespace {

constexpr double kPercentile = 0.9;
constexpr int64_t kMedians = 4; ///< white is at most this many times the median
constexpr size_t kFewValues = 20;
constexpr int64_t kRange = 10; ///< red is at least this many times white

/// White, orange at the middle of the scale, dark red at its end.
constexpr std::array<std::array<double, 3>, 3> kStops = {
    {{255, 255, 255}, {252, 141, 89}, {179, 0, 0}}};
constexpr const char *kStopColors[] = {"#ffffff", "#fc8d59", "#b30000"};

std::string rgb(double share) {
  share = std::clamp(share, 0.0, 1.0);
  const size_t from = share < 0.5 ? 0 : 1;
  const double t = share < 0.5 ? share * 2 : (share - 0.5) * 2;
  char text[16];
  int c[3];
  for (size_t i = 0; i < 3; ++i)
    c[i] = static_cast<int>(
        std::lround(kStops[from][i] + t * (kStops[from + 1][i] - kStops[from][i])));
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c[0], c[1], c[2]);
  return text;
}

std::string text_at(double x, double y, const std::string &text, const char *anchor) {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + anchor + "\">" +
         escaped(text) + "</text>\n";
}

} // namespace

std::string LatenessScale::color(int64_t late) const {
  if (late < 0) return "#d9d9d9";
  if (late <= white || red <= white) return "";
  const double share =
      std::log(static_cast<double>(late) / static_cast<double>(std::max<int64_t>(1, white))) /
      std::log(static_cast<double>(red) / static_cast<double>(std::max<int64_t>(1, white)));
  return rgb(share);
}

std::string LatenessScale::legend_svg(double x, double y) const {
  std::string svg = "<defs><linearGradient id=\"lateness-scale\">";
  for (size_t i = 0; i < std::size(kStopColors); ++i)
    svg += "<stop offset=\"" + number(0.5 * static_cast<double>(i)) + "\" stop-color=\"" +
           kStopColors[i] + "\"/>";
  svg += "</linearGradient></defs>\n";
  svg += text_at(x, y + 11, "after the first to arrive:", "start");
  const double bar_x = x + 170, bar = 200;
  svg += "<rect x=\"" + number(bar_x) + "\" y=\"" + number(y) + "\" width=\"" + number(bar) +
         "\" height=\"12\" fill=\"url(#lateness-scale)\" stroke=\"#999\"/>\n";
  const auto ns = [](int64_t v) {
    return format_duration(static_cast<uint64_t>(std::max<int64_t>(0, v)));
  };
  svg += text_at(bar_x, y + 26, "\u2264 " + ns(white), "start");
  if (red > white) {
    const auto middle = static_cast<int64_t>(
        std::sqrt(static_cast<double>(std::max<int64_t>(1, white)) * static_cast<double>(red)));
    svg += text_at(bar_x + bar / 2, y + 26, ns(middle), "middle");
    svg += text_at(bar_x + bar, y + 26, ns(red), "end");
  }
  svg += "<rect x=\"" + number(bar_x + bar + 20) + "\" y=\"" + number(y) +
         "\" width=\"12\" height=\"12\" fill=\"#d9d9d9\"/>\n" +
         text_at(bar_x + bar + 38, y + 11, "not in the operation", "start");
  return svg;
}

LatenessScale lateness_scale(const std::vector<std::vector<int64_t>> &lateness,
                             const std::vector<bool> &outlier_rows) {
  LatenessScale scale;
  std::vector<int64_t> late, ordinary; // positive values: all, and of rows not outliers
  for (size_t r = 0; r < lateness.size(); ++r)
    for (const int64_t ns : lateness[r])
      if (ns > 0) {
        late.push_back(ns);
        if (r >= outlier_rows.size() || !outlier_rows[r]) ordinary.push_back(ns);
      }
  if (late.empty()) return scale;
  scale.latest = *std::max_element(late.begin(), late.end());
  if (ordinary.size() >= kFewValues) {
    const auto percentile = [&ordinary](double share) {
      const auto at =
          static_cast<std::ptrdiff_t>(std::ceil(share * static_cast<double>(ordinary.size())) - 1);
      std::nth_element(ordinary.begin(), ordinary.begin() + at, ordinary.end());
      return ordinary[static_cast<size_t>(at)];
    };
    scale.white = std::min(percentile(kPercentile), kMedians * percentile(0.5));
  }
  scale.red = std::max(scale.latest, kRange * scale.white);
  return scale;
}

} // namespace prof::stats
