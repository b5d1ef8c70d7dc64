// `prof stats --report critical-path`: for each step walked, its critical
// path across ranks (critical_path.hpp) as a table, and the line the steps
// report gives a slow step.
#pragma once

#include <prof/stats/critical_path.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

#include <string>
#include <vector>

namespace prof::stats {

/// A row per step (its path's time by kind of work, its largest lateness
/// and the time without it), then a section per step: the path's stretches,
/// those in a row on one thread of one kind of work joined.
StatsTable critical_path_report(const std::vector<CriticalPath> &paths, const ExportHost &host);

/// "step 4: 440.12ms; 388.07ms of it waiting for RANK at COMM NAME #SEQ,
/// which was then in SLICE on its thread THREAD", or without a lateness the
/// path's largest kinds of work ("...; on its critical path: host 30.00ms,
/// ...").
std::string critical_path_line(const CriticalPath &path, const ExportHost &host);

} // namespace prof::stats
