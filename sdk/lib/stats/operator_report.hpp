// `prof stats --report torch-ops`: framework operators (slices of kind
// PROF_CATEGORY_OPERATOR, event.h) by name, forward and backward apart, as
// PyTorch's key_averages() shows them; with --group-by shapes by name and
// input shapes too.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_reports.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

namespace prof::stats {

/// A row per operator name and pass (and input shapes when
/// `options.group_by` is OperatorGrouping::Shapes): calls, self time and its
/// share, total time, average, min and max, most self time first.
StatsTable operator_report(const StatsAggregator &aggregator, const ExportHost &host,
                           const ReportOptions &options);

} // namespace prof::stats
