// `prof stats --report outliers`: the ranks and nodes that differ from the
// rest (find_rank_outliers), a row each, and the typical rank to compare with.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

/// A row per finding (measure, node, ranks, in what, in how many items, by
/// how much, the typical value and the threshold passed); notes with each
/// finding as a sentence and the typical rank.
StatsTable outliers_report(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
