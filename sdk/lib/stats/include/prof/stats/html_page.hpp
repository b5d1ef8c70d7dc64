// `prof stats --format html`: one self-contained page that fetches nothing
// (its one script, which sorts tables, is inline), so that it opens offline
// in any browser.
#pragma once

#include <prof/stats/rank_charts.hpp>
#include <prof/stats/stats_table.hpp>

#include <string>
#include <vector>

namespace prof::stats {

/// The page: `title`, then, when `charts` has operations or communication,
/// the heat map of how late each rank came to each operation
/// (svg#lateness-heatmap, a rect.cell per rank and column: an operation, or
/// past 160 of them a run of operations) and each rank's time in
/// communication by name, collective operations (svg#communication-bars)
/// apart from the other calls (svg#other-communication-bars), when it has
/// steps each rank's time in each step (svg#step-times, a polyline.rank-line
/// per rank and a circle.step-point per rank and step, the first 400 steps),
/// then every table (table.sortable: a click on a heading sorts by it) with
/// its sections and notes.
std::string render_html(const std::vector<StatsTable> &tables, const RankCharts &charts,
                        const std::string &title);

} // namespace prof::stats
