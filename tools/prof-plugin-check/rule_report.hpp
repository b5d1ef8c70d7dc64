// The checker's verdicts: one line per rule ("pass  descriptor.name",
// "FAIL  events.declared-track: slice on track 4242 never declared",
// "skip  lifecycle.start-stop: REASON"), then a summary line. A rule that
// fails several times keeps its first reason and counts the others.
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::plugin_check {

enum class Verdict { pass, fail, skip };

struct RuleResult {
  std::string rule; ///< family.name, e.g. "descriptor.vendor"
  Verdict verdict = Verdict::pass;
  std::string detail; ///< why it failed or was skipped; optional for a pass
};

class RuleReport {
public:
  explicit RuleReport(core::Console &console) : console_(console) {}

  /// Records and prints one verdict.
  void add(RuleResult result);
  void pass(const std::string &rule, const std::string &detail = {});
  void fail(const std::string &rule, const std::string &detail);
  void skip(const std::string &rule, const std::string &detail);
  /// A pass when `problems` is empty, else a failure with the first problem
  /// and how many more there were.
  void verdict(const std::string &rule, const std::vector<std::string> &problems,
               const std::string &pass_detail = {});

  /// "N rules: P passed, F failed, S skipped" for `plugin`.
  void summary(const std::string &plugin);
  bool failed() const { return failures_ > 0; }
  const std::vector<RuleResult> &results() const { return results_; }

private:
  core::Console &console_;
  std::vector<RuleResult> results_;
  int failures_ = 0;
};

/// The line printed for `result`.
std::string format_rule_line(const RuleResult &result);

/// "first problem (and N more)" or "" when there is none.
std::string first_of(const std::vector<std::string> &problems);

} // namespace prof::plugin_check
