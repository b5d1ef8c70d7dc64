#include <prof/stats/findings.hpp>

#include "findings_rules.hpp"

#include <prof/drop_causes.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cmath>

namespace prof::stats {
namespace {

// Defaults follow `nsys analyze` (gap, util-percent, util-chunks) and HTA's
// kernel launch statistics (launch-delay-us) where they have a peer.
const std::vector<FindingThreshold> kThresholds = {
    {"min-cost-us", 100,
     "a finding that costs less than this is not reported (drops and memory-peak always are)"},
    {"gap-ms", 500, "device-gaps: a device idle longer than this between two pieces of its work"},
    {"util-chunks", 30, "low-utilization: each device's busy span is cut into this many chunks"},
    {"util-percent", 50, "low-utilization: a chunk in which the device was busy less than this"},
    {"short-work-percent", 50,
     "short-work: kernels that ran shorter than their launch call, in percent of all launches"},
    {"launch-delay-us", 100,
     "launch-delay: work that started this long after its launch call returned"},
    {"straggler-percent", 60,
     "straggler: a rank last to arrive in at least this share of a collective's operations"},
    {"straggler-late-us", 1000, "straggler: and late by at least this much on average"},
    {"straggler-min-ops", 3, "straggler: only collectives with at least this many operations"},
    {"slow-rank-percent", 10,
     "slow-rank: a rank whose median step time is this much above the other ranks' median"},
    {"overlap-percent", 5,
     "no-overlap: a process whose communication overlapped compute less than this share"},
    {"memory-peak-percent", 90,
     "memory-peak: a device's peak memory use at or above this share of its memory size"},
};

} // namespace

const std::vector<FindingThreshold> &finding_thresholds() { return kThresholds; }

const FindingThreshold *find_finding_threshold(std::string_view name) {
  for (const FindingThreshold &threshold : kThresholds)
    if (name == threshold.name) return &threshold;
  return nullptr;
}

double FindingLimits::operator[](std::string_view name) const {
  if (auto given = given_.find(std::string(name)); given != given_.end()) return given->second;
  const FindingThreshold *threshold = find_finding_threshold(name);
  return threshold ? threshold->default_value : 0;
}

uint64_t FindingLimits::us(std::string_view name) const {
  return static_cast<uint64_t>(std::llround((*this)[name] * 1e3));
}

uint64_t FindingLimits::ms(std::string_view name) const {
  return static_cast<uint64_t>(std::llround((*this)[name] * 1e6));
}

const char *severity_name(Severity severity) {
  switch (severity) {
  case Severity::High:
    return "high";
  case Severity::Medium:
    return "medium";
  case Severity::Low:
    break;
  }
  return "low";
}

Severity severity_of(uint64_t cost_ns, uint64_t span_ns) {
  if (span_ns == 0) return Severity::Low;
  const double share = static_cast<double>(cost_ns) / static_cast<double>(span_ns);
  return share >= 0.10 ? Severity::High : share >= 0.01 ? Severity::Medium : Severity::Low;
}

void RuleContext::add(Finding finding) {
  if (finding.cost_ns < limits.us("min-cost-us")) return;
  if (finding.severity == Severity::Low) finding.severity = severity_of(finding.cost_ns, span);
  findings.push_back(std::move(finding));
}

std::vector<std::string> NameTally::top(size_t n) const {
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> rows(by_name_.begin(),
                                                                          by_name_.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto &a, const auto &b) { return a.second.second > b.second.second; });
  std::vector<std::string> out;
  for (size_t i = 0; i < rows.size() && i < n; ++i)
    out.push_back(rows[i].first + " x" + std::to_string(rows[i].second.first) + " (" +
                  format_duration(rows[i].second.second) + ")");
  if (rows.size() > n) out.push_back("and " + count_of(rows.size() - n, "other", "others"));
  return out;
}

std::string count_of(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string at_time(const RuleContext &context, uint64_t ts) {
  const uint64_t origin = report_time_origin(context.aggregator, context.host);
  return "at " + format_duration(ts - std::min(origin, ts));
}

namespace {

/// Events the capture lost make every other finding uncertain.
void drop_rule(RuleContext &context) {
  uint64_t lost = 0;
  std::vector<std::string> evidence;
  for (prof_drop_cause cause : kDropCauses)
    if (const uint64_t n = context.host.dropped(cause); n > 0) {
      lost += n;
      evidence.push_back(drop_cause_line(cause, n));
    }
  if (lost == 0) return;
  context.findings.push_back(
      {"drops", Severity::High,
       std::to_string(lost) +
           " events or records were lost in capture: the other findings count only what was "
           "kept and may be incomplete or wrong",
       0, std::move(evidence),
       "capture again with larger buffers (the remedy each evidence line names), or a shorter "
       "range"});
}

} // namespace

FindingsResult find_findings(StatsAggregator &aggregator, const ExportHost &host,
                             const FindingLimits &limits) {
  FindingsResult result;
  const uint64_t span = aggregator.last_ts() > aggregator.first_ts()
                            ? aggregator.last_ts() - aggregator.first_ts()
                            : 0;
  RuleContext context{aggregator, host, limits, span, result.findings, result.missing_inputs};
  if (const uint64_t left_out = aggregator.launches().left_out(); left_out > 0)
    result.missing_inputs.push_back("the launch and synchronization rules read the first " +
                                    std::to_string(LaunchLog::kMaxKept) +
                                    " API calls and pieces of device work of each "
                                    "kind; " +
                                    std::to_string(left_out) + " more were not read");
  launch_rules(context);
  device_rules(context);
  rank_rules(context);
  std::stable_sort(
      result.findings.begin(), result.findings.end(), [](const Finding &a, const Finding &b) {
        return a.severity != b.severity ? a.severity > b.severity : a.cost_ns > b.cost_ns;
      });
  drop_rule(context); // last, whatever its severity: it qualifies the others
  return result;
}

} // namespace prof::stats
