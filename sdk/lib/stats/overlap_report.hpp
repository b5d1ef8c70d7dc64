// `prof stats --report overlap` and `idle`: per process, how much of its
// communication (calls on the host, and work on its devices) its devices
// computed through; per device, its idle time and what it waited for.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

/// A row per process with communication calls or communication on its
/// devices: each one's time and the part of it during which the process's
/// devices ran kernels. Needs StatsScope::overlap and exact timelines.
StatsTable overlap_report(StatsAggregator &aggregator, const ExportHost &host);

/// A row per device (per owner process on a device processes share): idle
/// time within its busy span, split into communication, launch gaps and
/// host. Needs StatsScope::overlap and exact timelines.
StatsTable idle_report(StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
