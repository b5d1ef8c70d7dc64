// The color scale of the lateness heat map, set from the data: white up to
// the lateness most cells of the rows that are not outliers stay within
// (ordinary jitter: their 90th percentile, at most 4 times their median, so
// that a slow rank no one named, in more than a tenth of the cells, is not
// white), then on a log scale through orange to dark red at
// the latest, which is at least ten times that, so that jitter alone never
// reaches red.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

/// Width of the scale's legend (lateness_scale().legend_svg()).
inline constexpr double kLegendWidth = 560;

struct LatenessScale {
  int64_t white = 0;  ///< at or below: white (see above)
  int64_t red = 0;    ///< full red: the latest, at least 10 times `white`
  int64_t latest = 0; ///< the largest value
  /// A cell's fill: "" for white (not drawn), grey for -1 (not in it).
  std::string color(int64_t late) const;
  /// The legend, its top left at (x, y), about 30 pixels high.
  std::string legend_svg(double x, double y) const;
};

/// The scale of `lateness` (ns, -1 for none; rows flagged in `outlier_rows`
/// count only for the latest). With fewer than 20 positive values to set
/// white from, white is 0: every one of them is drawn.
LatenessScale lateness_scale(const std::vector<std::vector<int64_t>> &lateness,
                             const std::vector<bool> &outlier_rows = {});

} // namespace prof::stats
