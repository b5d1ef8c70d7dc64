// The rules behind `prof stats --report findings`, by what they read; each
// adds its findings to a RuleContext, and a line to its missing inputs when
// the report lacks what it needs.
#pragma once

#include <prof/stats/findings.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::stats {

struct RuleContext {
  StatsAggregator &aggregator;
  const ExportHost &host;
  const FindingLimits &limits;
  uint64_t span = 0; ///< the report's span, from its first event to its last end
  std::vector<Finding> &findings;
  std::vector<std::string> &missing_inputs;
  /// Adds a finding when its cost reaches the min-cost-us threshold.
  void add(Finding finding);
};

/// Occurrences of things by name: "conv x12 (3.2ms)" lines for evidence.
class NameTally {
public:
  void add(const std::string &name, uint64_t ns) {
    auto &[count, total] = by_name_[name];
    ++count;
    total += ns;
  }
  /// The `n` names of most time, one text each.
  std::vector<std::string> top(size_t n) const;

private:
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_name_;
};

/// "3 items" / "1 item".
std::string count_of(uint64_t n, const char *one, const char *many);
/// A time since the report's first event: "at 12.30ms".
std::string at_time(const RuleContext &context, uint64_t ts);

/// sync-copy, sync-memset, pageable-copy, sync-api, short-work, launch-delay.
void launch_rules(RuleContext &context);
/// device-gaps, low-utilization, memory-peak.
void device_rules(RuleContext &context);
/// straggler, slow-rank, no-overlap.
void rank_rules(RuleContext &context);

} // namespace prof::stats
