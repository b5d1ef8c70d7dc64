// `prof stats --format html`: one self-contained page, with no script and
// nothing to fetch, so that it opens offline in any browser.
#pragma once

#include <prof/stats/rank_charts.hpp>
#include <prof/stats/stats_table.hpp>

#include <string>
#include <vector>

namespace prof::stats {

/// The page: `title`, then, when `charts` has operations or communication,
/// the heat map of how late each rank came to each operation
/// (svg#lateness-heatmap, a rect.cell per rank and operation) and each
/// rank's time in communication by name (svg#communication-bars), when it
/// has steps each rank's time in each step (svg#step-times, a
/// polyline.rank-line per rank and a circle.step-point per rank and step, the
/// first 400 steps), then every table with its sections and notes.
std::string render_html(const std::vector<StatsTable> &tables, const RankCharts &charts,
                        const std::string &title);

} // namespace prof::stats
