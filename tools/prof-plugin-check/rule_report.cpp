#include "tools/prof-plugin-check/rule_report.hpp"

namespace prof::plugin_check {

std::string format_rule_line(const RuleResult &result) {
  const char *word = result.verdict == Verdict::pass   ? "pass"
                     : result.verdict == Verdict::fail ? "FAIL"
                                                       : "skip";
  std::string line = std::string(word) + "  " + result.rule;
  if (!result.detail.empty()) line += ": " + result.detail;
  return line;
}

std::string first_of(const std::vector<std::string> &problems) {
  if (problems.empty()) return {};
  std::string text = problems.front();
  if (problems.size() > 1) text += " (and " + std::to_string(problems.size() - 1) + " more)";
  return text;
}

void RuleReport::add(RuleResult result) {
  if (result.verdict == Verdict::fail) ++failures_;
  console_.line(format_rule_line(result));
  results_.push_back(std::move(result));
}

void RuleReport::pass(const std::string &rule, const std::string &detail) {
  add({rule, Verdict::pass, detail});
}
void RuleReport::fail(const std::string &rule, const std::string &detail) {
  add({rule, Verdict::fail, detail});
}
void RuleReport::skip(const std::string &rule, const std::string &detail) {
  add({rule, Verdict::skip, detail});
}

void RuleReport::verdict(const std::string &rule, const std::vector<std::string> &problems,
                         const std::string &pass_detail) {
  if (problems.empty())
    pass(rule, pass_detail);
  else
    fail(rule, first_of(problems));
}

void RuleReport::summary(const std::string &plugin) {
  int passed = 0, skipped = 0;
  for (const RuleResult &r : results_) {
    if (r.verdict == Verdict::pass) ++passed;
    if (r.verdict == Verdict::skip) ++skipped;
  }
  console_.line(plugin + ": " + std::to_string(results_.size()) +
                " rules: " + std::to_string(passed) + " passed, " + std::to_string(failures_) +
                " failed, " + std::to_string(skipped) + " skipped");
}

} // namespace prof::plugin_check
