// What every capture front end does around the core's CaptureRunner (prof
// profile/launch, prof attach, --pid): select the plugins, prepare the agent
// for process-scope sources, open the session socket, write the report
// header, start the windows, wait with the (prof) prompt, and end. The front
// ends differ only in how they get their processes.
#pragma once

#include "core/capture/capture_plan.hpp"
#include "core/capture/capture_runner.hpp"
#include "core/plugin_host/output_name.hpp"
#include "core/plugin_host/session_details.hpp"
#include "tools/prof/capture/agent_setup.hpp"
#include "tools/prof/capture/capture_buffers.hpp"
#include "tools/prof/capture/debug_dump.hpp"
#include "tools/prof/capture/plugin_selection.hpp"
#include "tools/prof/capture/process_facts.hpp"
#include "tools/prof/run_context.hpp"
#include "tools/prof/sessions/detach_signal.hpp"
#include "tools/prof/sessions/session_control.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace prof::tool {

/// The processes a capture profiles, as its front end found them.
struct CaptureTarget {
  std::string session;           ///< --session-new, or the front end's default
  std::vector<int> pids;         ///< the first is the session's
  std::vector<std::string> argv; ///< the command, for the report header
  std::string display;           ///< the command as shown
  /// Processes prof attached to, as /proc shows them: their rank goes in
  /// the report, and with several of them and a name holding %p or %q{NAME}
  /// each gets a report of its own, named from its pid and environment.
  std::vector<ProcessFacts> attached = {};
  /// prof start --all in the background: where its console goes.
  std::string log = {};
};

class CaptureFrontEnd {
public:
  /// Selects the plugins and configures each process-scope source once here,
  /// so a bad option or report name is exit 2 before anything runs. Throws
  /// cli::UsageError.
  CaptureFrontEnd(const RunContext &context, const core::CapturePlan &plan);
  ~CaptureFrontEnd();
  CaptureFrontEnd(const CaptureFrontEnd &) = delete;
  CaptureFrontEnd &operator=(const CaptureFrontEnd &) = delete;

  const core::CapturePlan &plan() const { return plan_; }
  /// The sources that run inside the application, through its agent.
  const std::vector<SelectedPlugin> &process_sources() const { return process_sources_; }
  /// The agent, created on first use when process-scope sources or the
  /// application's capture requests need it; null otherwise. Throws
  /// std::runtime_error when it is not installed.
  AgentSetup *agent();

  /// Opens the session of `target` (shared region, sources, exporters,
  /// report windows, the socket of a --session-new name) and starts
  /// collecting; `end_application` is what the end of --duration does to
  /// the processes. Throws (cli::UsageError for bad input: a taken session
  /// name, a report name).
  core::CaptureController &start(const CaptureTarget &target,
                                 core::CaptureController::EndApplication end_application);
  /// Once the processes may run: what they do not wait for (the first
  /// shared ring, the socket of a default session name).
  void released();
  /// Readable when prof should stop waiting and leave the processes running.
  int detach_fd() const { return detach_.fd; }
  /// Runs `wait_for_processes` with the (prof) prompt when --dynamic on asks
  /// for one (`prompt` false: it cannot); then no command reaches the
  /// controller any more.
  void wait(const std::function<void()> &wait_for_processes, bool prompt = true);
  /// Stops the sources and the drain, then finishes the windows and the
  /// exporters with the processes' exit, under a progress bar; false when a
  /// report or an exporter failed.
  bool finish(int exit_code, int exit_signal);

private:
  /// Splits the capture's report into one report per launcher rank; false
  /// (with a line) when it could not.
  bool split_per_rank();
  /// The report of each attached process, checked; empty when they share one.
  std::vector<std::string> per_process_reports(const CaptureTarget &target, bool force) const;
  /// Splits each window's report into one per attached process; false
  /// (with a line) when it could not.
  bool split_per_process();
  /// Splits report `written`, window or dump `window` (from 0), per attached process.
  bool split_per_process(const std::string &written, size_t window);

  const cli::CommandLine &command_;
  core::Console &console_;
  core::CapturePlan plan_;
  PluginSelection selection_;
  std::vector<SelectedPlugin> process_sources_;
  std::string report_pattern_;
  /// Set when prof runs around a launcher and the report's name takes its
  /// rank (`-o r%q{RANK} mpirun ...`): the report is split per rank at the end.
  std::string split_variable_;
  /// With several processes attached to and per_process_reports: theirs.
  std::vector<ProcessFacts> attached_;
  std::vector<std::string> attached_reports_;
  /// Flight recorder dumps split as they were written, not again at the end.
  std::set<std::string> split_already_;
  core::OutputNameFacts name_facts_;
  const DebugDump dump_; // --debug-dump: its folder is checked before anything starts
  std::unique_ptr<AgentSetup> agent_;
  std::unique_ptr<SessionControl> control_;
  std::optional<SessionFacts> unopened_control_; ///< the socket released() opens
  core::SessionDetails details_;                 // what the exporters' session info points into
  const DetachSignal detach_;
  core::CaptureRunner runner_; // ends before what it refers to above
};

} // namespace prof::tool
