// `prof stats --format html`: one self-contained page that fetches nothing
// (its one script, which sorts tables, is inline), so that it opens offline
// in any browser.
#pragma once

#include <prof/stats/rank_charts.hpp>
#include <prof/stats/stats_table.hpp>

#include <string>
#include <vector>

namespace prof::stats {

/// The page: `title`, then the outlier nodes and ranks (section#outliers),
/// then, when `charts` has operations, each rank's mean lateness as a
/// distribution (svg#lateness-distribution), the heat map of how late each
/// rank (or group of nodes) came to each operation (svg#lateness-heatmap, a
/// rect.cell per row and column that is not white) and the operations with
/// the largest skew (table#most-skewed); each rank's time in communication
/// by name, collective operations apart from the other calls (bars,
/// svg#communication-bars and svg#other-communication-bars, up to
/// 96 ranks; distributions past that); when it has steps each
/// rank's time in each step (svg#step-times, the first 400 steps); then
/// every table (table.sortable: a click on a heading sorts by it; a
/// section's first 200 rows, a table's first 64 sections) with its sections
/// and notes.
std::string render_html(const std::vector<StatsTable> &tables, const RankCharts &charts,
                        const std::string &title);

} // namespace prof::stats
