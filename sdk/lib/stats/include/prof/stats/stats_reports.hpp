// The reports of `prof stats`: their names, what each shows, what the scan
// must keep for them, and how each becomes a StatsTable.
#pragma once

#include <prof/stats/critical_path.hpp>
#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/stats_table.hpp>

#include <prof/plugin.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace prof::stats {

struct ReportInfo {
  const char *name;
  const char *description; ///< one line for --help-reports
  bool by_default;         ///< shown without --report when it has rows
};

/// Every report, in the order `--help-reports` lists them.
const std::vector<ReportInfo> &known_reports();
const ReportInfo *find_report(std::string_view name);
/// "  NAME  DESCRIPTION" lines, names padded to one width.
std::string help_reports_text();

/// How the torch-ops report makes its rows (--group-by).
enum class OperatorGrouping {
  Name,  ///< by operator name and pass
  Shapes ///< by operator name, pass and input shapes
};

struct ReportOptions {
  uint64_t interval_ns = 100'000'000;                 ///< device-utilization windows
  uint64_t gap_threshold_ns = 1'000'000;              ///< device-gaps: shortest gap reported
  OperatorGrouping group_by = OperatorGrouping::Name; ///< torch-ops rows
  /// The critical paths of the steps walked (critical-path, and the steps
  /// report's slow steps), when needs_critical_paths() asked for them.
  const std::vector<CriticalPath> *critical_paths = nullptr;
  /// findings: thresholds given instead of their defaults, by name
  /// (finding_thresholds()).
  std::map<std::string, double> finding_thresholds = {};
};

/// Whether any of `reports` shows critical paths: the caller then walks the
/// steps (choose_step_windows, StepSliceCollector, find_critical_paths)
/// and hands them over in ReportOptions::critical_paths.
bool needs_critical_paths(const std::vector<std::string> &reports);

/// What the scan must keep for `reports` (names known to find_report).
StatsScope scope_for(const std::vector<std::string> &reports, const ReportOptions &options);

/// Report `name` from a finished scan. Times in the device reports count
/// from the report's first event.
StatsTable build_report(std::string_view name, StatsAggregator &aggregator, const ExportHost &host,
                        const ReportOptions &options);

} // namespace prof::stats
