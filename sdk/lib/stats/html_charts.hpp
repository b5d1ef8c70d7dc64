// The SVG charts of `prof stats --format html` (html_page.hpp says what the
// page holds), each a self-contained <svg class="chart"> sized to what it
// draws, legend included.
#pragma once

#include <prof/stats/rank_charts.hpp>

#include <cstddef>
#include <string>

namespace prof::stats {

/// How late each rank came to each operation: svg#lateness-heatmap, a
/// rect.cell per rank and column. Past what fits (a column at least 6
/// pixels wide), consecutive operations share a column, which shows the
/// latest of them. Rows are at least 3 pixels high; rank labels are thinned
/// so that they never overlap; axes say what rows and columns are.
std::string heat_map_svg(const RankCharts &charts);

/// Each rank's time in calls by name, a bar of parts per rank: svg#`id`.
std::string bars_svg(const std::vector<std::vector<RankCharts::Part>> &parts,
                     const std::vector<std::string> &ranks, const std::string &id);

/// Steps past this many are left out of the step chart (the first are kept).
inline constexpr size_t kMaxChartSteps = 400;
/// Each rank's time in each step, a line per rank over the step number:
/// svg#step-times.
std::string step_chart_svg(const StepTimes &times);

/// Width of the rank labels left of a chart: the longest label, within bounds.
int rank_label_width(const std::vector<std::string> &ranks);
/// `label` cut to fit `width` pixels, with an ellipsis.
std::string fitted_label(const std::string &label, int width);

} // namespace prof::stats
