// `prof stats --report device-memory`: per device, the peak of live device
// memory and when it was reached, the blocks live then, and the blocks never
// freed, each with the API call that allocated it.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

StatsTable device_memory_report(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
