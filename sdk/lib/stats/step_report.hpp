// `prof stats --report steps`: the time of each training step on each rank,
// the slowest rank of each step and the spread across ranks.
#pragma once

#include <prof/stats/critical_path.hpp>
#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

/// Two sections: a row per step (ranks, min, average, max, spread, the
/// slowest rank), then a row per step and rank (its time, and how much
/// slower it was than the step's fastest rank), with their own columns.
/// A note for each slow step (its longest time on a rank a fifth over the
/// median step's) among `paths` says what its critical path went through.
StatsTable step_report(const StatsAggregator &aggregator, const ExportHost &host,
                       const std::vector<CriticalPath> *paths = nullptr);

} // namespace prof::stats
