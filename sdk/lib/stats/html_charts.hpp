// The SVG charts of `prof stats --format html` (html_page.hpp says what the
// page holds), each a self-contained <svg class="chart"> sized to what it
// draws, legend included.
#pragma once

#include <prof/stats/rank_charts.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

/// Ranks past this many share the heat map's rows, and the bar charts give
/// way to distributions.
inline constexpr size_t kMaxRankRows = 96;

/// How late each rank came to each operation: svg#lateness-heatmap, a row
/// per rank (the ranks of a node together, a line between nodes) or, past
/// kMaxRankRows ranks, a row per outlier rank (charts.outlier_ranks, first)
/// then a row per group of whole nodes; a column per operation or run of
/// them. A rect.cell shows the latest of its ranks and operations, colored
/// on lateness_scale() (white cells are left out). Rank labels are thinned
/// so that they never overlap; axes say what rows and columns are.
std::string heat_map_svg(const RankCharts &charts);

/// A value per rank (ns, -1 for none) as a distribution: svg#`id`, the
/// ranks sorted by it (a polyline.sorted, the p50, p90 and p99 marked, a
/// circle.outlier per outlier rank), a histogram (rect.bin, counts on a log
/// scale) and a line of percentiles naming the highest rank.
std::string distribution_svg(const std::string &id, const std::string &what,
                             const std::vector<int64_t> &values, const RankCharts &charts);

/// Each rank's time in calls by name, a bar of parts per rank: svg#`id`.
std::string bars_svg(const std::vector<std::vector<RankCharts::Part>> &parts,
                     const std::vector<std::string> &ranks, const std::string &id);

/// Steps past this many are left out of the step chart (the first are kept).
inline constexpr size_t kMaxChartSteps = 400;
/// Ranks past this many: the step chart draws the median, the 90th
/// percentile and the slowest of each step, and the lines of `highlighted`.
inline constexpr size_t kLegendRanks = 16;
/// Each rank's time in each step, a line per rank over the step number:
/// svg#step-times (at many ranks, polyline.step-percentile lines and the
/// lines of the ranks labelled `highlighted`).
std::string step_chart_svg(const StepTimes &times,
                           const std::vector<std::string> &highlighted = {});

/// Width of the rank labels left of a chart: the longest label, within bounds.
int rank_label_width(const std::vector<std::string> &ranks);
/// `label` cut to fit `width` pixels, with an ellipsis.
std::string fitted_label(const std::string &label, int width);

} // namespace prof::stats
