// `prof stats --report findings`: a row per finding (see findings.hpp).
#pragma once

#include <prof/stats/findings.hpp>
#include <prof/stats/stats_reports.hpp>

namespace prof::stats {

/// Needs a scan with scope_for({"findings"}).
StatsTable findings_report(StatsAggregator &aggregator, const ExportHost &host,
                           const ReportOptions &options);

/// What the findings report needs of a scan.
void findings_scope(StatsScope &scope);

} // namespace prof::stats
