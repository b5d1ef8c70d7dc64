// Findings: what a report's events say is worth fixing, each with what was
// seen, the time it costs, its evidence and what to try. The rules follow
// Nsight Systems' expert rules (`nsys analyze`) and HTA's launch statistics
// where they have a peer; docs/findings.md describes each one and the
// thresholds they share.
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace prof::stats {

/// One threshold a rule reads: its name for --finding-threshold, its
/// default and what it means.
struct FindingThreshold {
  const char *name;
  double default_value;
  const char *meaning;
};

/// Every threshold, in the order docs/findings.md lists them.
const std::vector<FindingThreshold> &finding_thresholds();
const FindingThreshold *find_finding_threshold(std::string_view name);

/// The thresholds in force: the defaults with any given value instead.
class FindingLimits {
public:
  /// `given`: values by threshold name (names finding_thresholds() knows).
  explicit FindingLimits(const std::map<std::string, double> &given = {}) : given_(given) {}
  double operator[](std::string_view name) const;
  /// A threshold of microseconds (or milliseconds) as ns.
  uint64_t us(std::string_view name) const;
  uint64_t ms(std::string_view name) const;

private:
  std::map<std::string, double> given_;
};

enum class Severity : uint8_t { Low, Medium, High };
const char *severity_name(Severity severity);

struct Finding {
  std::string rule; ///< "sync-copy", ...
  Severity severity = Severity::Low;
  std::string seen;                  ///< what was seen, one sentence
  uint64_t cost_ns = 0;              ///< time it costs (0: none to state, e.g. drops)
  std::vector<std::string> evidence; ///< slices, ranks, steps: a few, with counts
  std::string advice;                ///< what to try
};

/// What the rules found, and a line for each rule whose input this report
/// lacks (so it could not run).
struct FindingsResult {
  std::vector<Finding> findings; ///< by severity, then cost, highest first
  std::vector<std::string> missing_inputs;
};

/// Runs every rule over a scan made with scope_for({"findings"}).
FindingsResult find_findings(StatsAggregator &aggregator, const ExportHost &host,
                             const FindingLimits &limits);

/// The severity of a cost of `cost_ns` in a report spanning `span_ns`: high
/// from 10% of it, medium from 1%.
Severity severity_of(uint64_t cost_ns, uint64_t span_ns);

} // namespace prof::stats
