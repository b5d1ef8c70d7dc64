// lifecycle.* and events.* for a source: the plugin is created, configured,
// started, suspended, resumed, stopped, flushed and destroyed in every order
// prof may use (and a few it must survive), each instance against a
// CheckingHost, for about 100 ms a run; every event of every run is checked.
//
// A process-scope source runs inside the profiled application in prof; the
// checker stands in for that application. When such a source cannot start
// here (it needs an application's runtime, a device, a driver), its
// lifecycle and events rules are skipped with the reason it gave, not failed.
#pragma once

#include "tools/prof-plugin-check/event_findings.hpp"
#include "tools/prof-plugin-check/rule_report.hpp"
#include "tools/prof-plugin-check/source_under_test.hpp"
#include "tools/prof-plugin-check/workload.hpp"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>

namespace prof::plugin_check {

class SourceChecks {
public:
  /// `base`: the values every run starts from (--option, validated).
  /// `workload`, when not null, runs while the source is started.
  SourceChecks(const core::PluginInfo &plugin, std::map<std::string, std::string> base,
               const Workload *workload);

  /// create, configure, destroy with `values`: "" when configure accepted them.
  std::string try_options(const core::OptionValues &values);
  void check_lifecycle(RuleReport &report);
  void check_events(RuleReport &report);

private:
  enum class Step { configure, start, wait, suspend, resume, stop, flush, stop_unstarted };
  struct Scenario {
    const char *rule;
    std::vector<Step> steps;
  };
  SourceUnderTest &instance(const core::OptionValues &values);
  core::OptionValues base_values() const;
  /// Runs `steps` on a fresh instance; the first failure, if any.
  StepOutcome run(const std::vector<Step> &steps);
  StepOutcome step(SourceUnderTest &source, Step step);
  /// A failure for a system-scope source, a skip for a process-scope one
  /// that could not get going here.
  void failure(RuleReport &report, const char *rule, const StepOutcome &outcome);
  void check_failed_configure(RuleReport &report);
  void check_second_instance(RuleReport &report);

  const core::PluginInfo &plugin_;
  std::map<std::string, std::string> base_;
  const Workload *workload_;
  EventFindings findings_;
  // Every instance's host lives until the checker ends (see SourceUnderTest).
  std::deque<std::unique_ptr<SourceUnderTest>> instances_;
  bool started_ = false;     ///< some run got past start()
  std::string cannot_start_; ///< why a process-scope source could not start here
  std::chrono::milliseconds run_time_{100};
};

} // namespace prof::plugin_check
