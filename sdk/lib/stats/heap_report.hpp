// `prof stats --report memory`: what the memory source (--memory-profile)
// saw of each process's heap: its peak and the call sites holding memory
// then, the blocks live at exit (leaks) by call site, and the allocations by
// size, from its summary instants (category heap/...).
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

StatsTable heap_report(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
