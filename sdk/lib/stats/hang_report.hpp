// `prof stats --report hang`: over the flight-recorder dumps of a job's
// ranks, where each communicator stopped, which ranks the others wait for,
// and what every rank was doing at its dump.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

/// A section per communicator (a row per rank: the last sequence number it
/// entered and completed, the call it is inside and for how long, and its
/// state), then the slices open at the dumps and the latest CPU sample of
/// each thread, with their own columns. Its notes name the ranks the others
/// wait for and what they are inside. Needs StatsScope::collectives and
/// StatsScope::open_work.
StatsTable hang_report(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
