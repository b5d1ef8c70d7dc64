// Aggregated activities resolved to names: the rows that the summary
// exporter and `prof stats` print. Keyed by name, so equal names interned
// apart (e.g. in merged reports) become one row.
#pragma once

#include <prof/stats/activity_stats.hpp>
#include <prof/stats/summary_aggregator.hpp>
#include <prof/stats/summary_tables.hpp>

#include <prof/plugin.hpp>

#include <functional>
#include <map>
#include <string>

namespace prof::stats {

/// Durations by resolved name.
using NamedStats = std::map<std::string, DurationStats>;

/// The activities of the groups `keep` accepts (every group when empty), by
/// group then name; device activities of all devices together.
std::map<ActivityGroup, NamedStats>
activities_by_group(const SummaryAggregator &aggregator, const ExportHost &host,
                    const std::function<bool(ActivityGroup)> &keep = {});

/// Device activities by enclosing DEVICE track (0: none) then name.
std::map<prof_track_id, NamedStats> device_activities(const SummaryAggregator &aggregator,
                                                      const ExportHost &host);

/// The rows of one group, for format_activity_table().
ActivityGroupRows to_rows(ActivityGroup group, const NamedStats &stats);

/// How titles name a device: its track's name, else "GCU <index>"; "unknown
/// device" for 0 or an undeclared track.
std::string device_label(const ExportHost &host, prof_track_id device);

} // namespace prof::stats
