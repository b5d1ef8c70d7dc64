// The summary exporter: topsprof's statistics mode, printed through the
// host at the end of an export: activities, annotation ranges, counters
// and CPU functions.
#ifndef PROF_PLUGINS_SUMMARY_EXPORTER_HPP
#define PROF_PLUGINS_SUMMARY_EXPORTER_HPP

#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::summary {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api",
     "summary: all activities and counters; gcu: device activities only; "
     "per-gcu: one table per device; api: API calls only"},
    {"functions", PROF_OPTION_ENUM, "all", 0, -1, "all,flat,top-down,bottom-up,none",
     "CPU function view of sampled call stacks: which tables to print"},
    {"function-rows", PROF_OPTION_INT, "20", 1, 100000, nullptr,
     "rows of the flat CPU function table"},
    {"tree-min-percent", PROF_OPTION_DOUBLE, "2", 0, 100, nullptr,
     "call-tree nodes under this share of the samples are left out"},
};

/// What the summary prints (option `mode`).
enum class SummaryMode {
  Summary, ///< every group in one table, then the counters
  Gcu,     ///< device activities only
  PerGcu,  ///< one device table per device, then host groups and counters
  Api      ///< API calls only
};

std::optional<SummaryMode> parse_summary_mode(std::string_view text);

class SummaryExporter {
public:
  explicit SummaryExporter(ExportHost host) : host_(host) {}

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  void print_activities();
  void print_report_tables(); ///< annotation ranges and the heap, as prof stats shows them
  void print_counters();
  void print_functions();
  void print_findings(); ///< a line per finding, when any fire
  void print_section(const std::string &title, const std::vector<std::string> &table);

  ExportHost host_;
  SummaryMode mode_ = SummaryMode::Summary;
  // The statistics `prof stats` computes, for the tables they share.
  std::optional<stats::StatsAggregator> aggregator_;
};

} // namespace prof::summary

#endif
