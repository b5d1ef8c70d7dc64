#include "findings_report.hpp"

namespace prof::stats {

void findings_scope(StatsScope &scope) {
  scope.launches = true;    // sync-copy, sync-memset, pageable-copy, sync-api, launch rules
  scope.device_work = true; // whether device work is there at all
  scope.overlap = true;     // no-overlap (the overlap report)
  scope.collectives = true; // straggler (the stragglers report)
  scope.steps = true;       // slow-rank (the steps report's step times)
}

StatsTable findings_report(StatsAggregator &aggregator, const ExportHost &host,
                           const ReportOptions &options) {
  StatsTable table{"findings",
                   "",
                   {{"Rule", "Rule", Align::Left},
                    {"Severity", "Severity", Align::Left},
                    {"Cost", "Cost(ns)", Align::Right},
                    {"Seen", "Seen", Align::Left},
                    {"Evidence", "Evidence", Align::Left},
                    {"Advice", "Advice", Align::Left}},
                   {},
                   "======== Findings: none",
                   {}};
  const FindingsResult result =
      find_findings(aggregator, host, FindingLimits(options.finding_thresholds));
  if (!result.findings.empty()) {
    Section section{"", "======== Findings:", {}};
    for (const Finding &finding : result.findings) {
      std::string evidence;
      for (const std::string &line : finding.evidence)
        evidence += (evidence.empty() ? "" : "; ") + line;
      section.rows.push_back(
          {Cell::of_text(finding.rule), Cell::of_text(severity_name(finding.severity)),
           finding.cost_ns > 0 ? Cell::of_ns(finding.cost_ns) : Cell::of_text("-", ""),
           Cell::of_text(finding.seen), Cell::of_text(evidence), Cell::of_text(finding.advice)});
    }
    table.sections.push_back(std::move(section));
  }
  for (const std::string &line : result.missing_inputs)
    table.notes.push_back("not checked: " + line);
  table.notes.push_back("Cost: the time the finding costs (host blocked, device idle, ranks "
                        "waiting); rules and thresholds: docs/findings.md, changed with "
                        "--finding-threshold NAME=VALUE");
  return table;
}

} // namespace prof::stats
