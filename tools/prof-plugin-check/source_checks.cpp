#include "tools/prof-plugin-check/source_checks.hpp"

#include "tools/prof-plugin-check/option_cases.hpp"

#include <algorithm>
#include <thread>

namespace prof::plugin_check {
namespace {

bool starts_with(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

/// Whether a failure happened while getting going (create, configure, start).
bool getting_going(const StepOutcome &outcome) {
  return starts_with(outcome.reason, "create") || starts_with(outcome.reason, "configure") ||
         starts_with(outcome.reason, "start");
}

} // namespace

SourceChecks::SourceChecks(const core::PluginInfo &plugin, std::map<std::string, std::string> base,
                           const Workload *workload)
    : plugin_(plugin), base_(std::move(base)), workload_(workload) {}

core::OptionValues SourceChecks::base_values() const { return core::OptionValues(plugin_, base_); }

SourceUnderTest &SourceChecks::instance(const core::OptionValues &values) {
  instances_.push_back(std::make_unique<SourceUnderTest>(plugin_, values, findings_));
  return *instances_.back();
}

std::string SourceChecks::try_options(const core::OptionValues &values) {
  SourceUnderTest &source = instance(values);
  StepOutcome outcome = source.create();
  if (outcome.ok) outcome = source.configure();
  source.destroy();
  return outcome.ok ? std::string() : outcome.reason;
}

StepOutcome SourceChecks::step(SourceUnderTest &source, Step step) {
  switch (step) {
  case Step::configure:
    return source.configure();
  case Step::start: {
    StepOutcome outcome = source.start();
    started_ = started_ || outcome.ok;
    return outcome;
  }
  case Step::wait: {
    const auto until = std::chrono::steady_clock::now() + run_time_;
    if (workload_) workload_->run();
    std::this_thread::sleep_until(until);
    return {};
  }
  case Step::suspend:
    return source.suspend();
  case Step::resume:
    return source.resume();
  case Step::stop:
    return source.stop();
  case Step::flush:
    return source.flush();
  case Step::stop_unstarted: {
    // prof never does this, but a plugin must survive it: a failure is fine.
    source.stop();
    return {};
  }
  }
  return {};
}

StepOutcome SourceChecks::run(const std::vector<Step> &steps) {
  SourceUnderTest &source = instance(base_values());
  StepOutcome outcome = source.create();
  for (size_t i = 0; outcome.ok && i < steps.size(); ++i) {
    outcome = step(source, steps[i]);
    // A source that started is stopped whatever failed after.
    if (!outcome.ok && steps[i] != Step::start && steps[i] != Step::stop &&
        std::find(steps.begin(), steps.begin() + i, Step::start) != steps.begin() + i)
      source.stop();
  }
  source.destroy();
  return outcome;
}

void SourceChecks::failure(RuleReport &report, const char *rule, const StepOutcome &outcome) {
  if (plugin_.scope == PROF_SCOPE_PROCESS && getting_going(outcome)) {
    if (cannot_start_.empty()) cannot_start_ = outcome.reason;
    report.skip(rule, "process-scope source could not get going outside an application (" +
                          outcome.reason + ")");
    return;
  }
  report.fail(rule, outcome.reason);
}

void SourceChecks::check_lifecycle(RuleReport &report) {
  using enum Step;
  const Scenario scenarios[] = {
      {"lifecycle.create-destroy", {}},
      {"lifecycle.configure-destroy", {configure}},
      {"lifecycle.start-stop-flush", {configure, start, wait, stop, flush}},
      {"lifecycle.start-stop", {configure, start, wait, stop}},
      {"lifecycle.suspend-resume",
       {configure, start, wait, suspend, wait, resume, wait, stop, flush}},
      {"lifecycle.stop-while-suspended", {configure, start, suspend, stop, flush}},
      {"lifecycle.stop-without-start", {configure, stop_unstarted}},
  };
  for (const Scenario &scenario : scenarios) {
    const StepOutcome outcome = run(scenario.steps);
    if (outcome.ok)
      report.pass(scenario.rule);
    else
      failure(report, scenario.rule, outcome);
    run_time_ = std::chrono::milliseconds(30); // the first run is the long one
  }
  check_failed_configure(report);
  check_second_instance(report);
}

void SourceChecks::check_failed_configure(RuleReport &report) {
  // Values that may make configure fail: the table's defaults alone (the
  // --option values may be what made it work), then values outside the
  // table (prof never hands them over; here they only serve to fail).
  std::vector<std::map<std::string, std::string>> candidates;
  if (!base_.empty()) candidates.emplace_back();
  for (const prof_option_desc &option : plugin_.options)
    for (const OptionCase &c : option_cases(option))
      if (!c.in_table) {
        auto values = base_;
        values[option.name] = c.value;
        candidates.push_back(std::move(values));
      }
  for (const auto &values : candidates) {
    SourceUnderTest &source = instance(core::OptionValues(plugin_, values));
    if (!source.create().ok) continue;
    const StepOutcome outcome = source.configure();
    source.destroy();
    if (!outcome.ok) {
      report.pass("lifecycle.destroy-after-failed-configure", outcome.reason);
      return;
    }
  }
  report.skip("lifecycle.destroy-after-failed-configure",
              "no value the checker tried made configure fail");
}

void SourceChecks::check_second_instance(RuleReport &report) {
  const char *rule = "lifecycle.second-instance";
  SourceUnderTest &first = instance(base_values());
  StepOutcome outcome = first.create();
  if (outcome.ok) outcome = first.configure();
  if (outcome.ok) outcome = first.start();
  if (!outcome.ok) {
    first.destroy();
    failure(report, rule, outcome);
    return;
  }
  SourceUnderTest &second = instance(base_values());
  StepOutcome beside = second.create();
  bool second_started = false;
  if (beside.ok) beside = second.configure();
  if (beside.ok) {
    beside = second.start();
    second_started = beside.ok;
  }
  step(first, Step::wait);
  if (second_started) {
    if (StepOutcome s = second.stop(); !s.ok && outcome.ok) outcome = s;
    if (StepOutcome s = second.flush(); !s.ok && outcome.ok) outcome = s;
  }
  second.destroy();
  if (StepOutcome s = first.stop(); !s.ok && outcome.ok) outcome = s;
  if (StepOutcome s = first.flush(); !s.ok && outcome.ok) outcome = s;
  first.destroy();
  if (!outcome.ok)
    report.fail(rule, "beside a second instance, the first: " + outcome.reason);
  else if (!beside.ok && !beside.explained)
    report.fail(rule, "the second instance was refused: " + beside.reason);
  else if (!beside.ok)
    report.pass(rule, "the second instance was refused: " + beside.reason);
  else
    report.pass(rule);
}

void SourceChecks::check_events(RuleReport &report) {
  if (!started_) {
    const std::string why =
        cannot_start_.empty() ? "the source never started" : "the source could not start here";
    for (const char *rule : kEventRules)
      report.skip(rule, why);
    return;
  }
  if (findings_.events() == 0) {
    for (const char *rule : kEventRules)
      report.skip(rule, "the source emitted no events in its runs");
    return;
  }
  const std::string seen = findings_.events_text();
  for (const char *rule : kEventRules)
    report.verdict(rule, findings_.problems(rule), rule == kEventRules[0] ? seen : std::string());
}

} // namespace prof::plugin_check
