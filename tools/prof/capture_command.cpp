#include "tools/prof/capture_command.hpp"

#include "core/capture/capture_runner.hpp"
#include "core/event_bus.hpp"
#include "core/session_clock.hpp"
#include "core/shm_event_source.hpp"
#include "tools/prof/agent_setup.hpp"
#include "tools/prof/app_launcher.hpp"
#include "tools/prof/application_environment.hpp"
#include "tools/prof/capture_parts.hpp"
#include "tools/prof/capture_plan.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/output_name.hpp"
#include "tools/prof/plugin_selection.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/prompt.hpp"
#include "tools/prof/session_control.hpp"
#include "tools/prof/session_details.hpp"
#include "tools/prof/window_reports.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::tool {

namespace {

// Ends the application, still held at its gate, when prof returns before
// releasing it: it never ran user code.
struct HeldApplication {
  AppLauncher &app;
  bool released = false;
  ~HeldApplication() {
    if (released || app.pid() <= 0) return;
    kill(app.pid(), SIGKILL);
    waitpid(app.pid(), nullptr, 0);
  }
};

std::string signal_text(int signal) {
  const char *name = sigabbrev_np(signal);
  const char *what = strsignal(signal);
  return std::to_string(signal) + (name ? std::string(" (SIG") + name + ": " + what + ")" : "");
}

} // namespace

std::string report_output_path(const cli::CommandLine &command) {
  if (const std::string *path = command.value("export-profile")) return *path;
  // topsprof's raw data is, in prof, the native report.
  if (const std::string *path = command.value("export-rawdata")) return *path;
  if (const std::string *name = command.value("output")) {
    return std::filesystem::path(*name).has_extension() ? *name : *name + ".profrep";
  }
  // topsprof's visual-profiler folder also holds the native report, which
  // is what --visual-profiler-merge-from merges.
  if (const std::string *trace = command.value("export-visual-profiler")) {
    std::error_code ec;
    if (trace->back() == '/' || std::filesystem::is_directory(*trace, ec))
      return (std::filesystem::path(*trace) / "prof-%p.profrep").string();
    std::string beside = std::filesystem::path(*trace).replace_extension(".profrep").string();
    return beside == *trace ? beside + ".profrep" : beside;
  }
  if (command.subcommand_given &&
      (command.subcommand == "profile" || command.subcommand == "attach"))
    return "report%i.profrep";
  return "";
}

void create_visual_profiler_folder(const cli::CommandLine &command) {
  const std::string *trace = command.value("export-visual-profiler");
  if (!trace || trace->back() != '/') return;
  std::error_code ec; // a folder that cannot be made is reported when the report opens
  std::filesystem::create_directories(*trace, ec);
}

int run_capture(const RunContext &context) {
  const cli::CommandLine &command = context.command;
  core::Console &console = context.console;

  // Everything that can be wrong with the input is found before anything starts.
  const CapturePlan plan = capture_plan(command);
  const ApplicationEnvironment app_environment = application_environment(command);
  PluginSelection selection = select_plugins(command, context.registry);
  // System-scope sources run here; process-scope ones inside the application.
  const std::vector<SelectedPlugin> process_sources = take_process_sources(selection);
  // A name with macros (%p: the application's pid) is known once it runs.
  const std::string report_pattern = report_output_path(command);
  std::string report_path = has_output_macros(report_pattern) ? "" : report_pattern;
  const bool force = command.has("force-overwrite");
  std::string problem;
  if (!report_path.empty() && !output_path_allowed(report_path, force, &problem))
    throw cli::UsageError(problem);
  if (AppLauncher::resolve(command.app[0]).empty())
    throw cli::UsageError("cannot find application '" + command.app[0] +
                          "': not an executable file and not found in PATH");

  core::Catalog catalog;
  const core::EventBusConfig buffers = bus_config(command);
  core::EventBus bus(buffers);
  check_process_sources(process_sources, catalog, bus, console);
  std::unique_ptr<AgentSetup> agent;
  // The agent also carries the application's prof_start()/prof_stop().
  if (!process_sources.empty() || plan.range != CaptureRange::None) {
    try {
      agent = std::make_unique<AgentSetup>(process_sources);
    } catch (const std::exception &e) {
      print_error(e.what());
      return kExitFailure;
    }
  }
  AppLauncher app;
  std::vector<std::string> environment = app_environment.variables;
  if (agent)
    environment.insert(environment.end(), agent->environment().begin(), agent->environment().end());
  if (!app.spawn(command.app, command.value_or("show-output", "true") == "true", environment,
                 app_environment.inherit)) {
    print_error(app.error());
    return kExitFailure;
  }
  HeldApplication held{app}; // every return until release() ends it
  console.set_pid(app.pid());
  create_visual_profiler_folder(command);
  if (has_output_macros(report_pattern)) {
    report_path = expand_output_name(report_pattern, {app.pid(), host_name(), std::time(nullptr)},
                                     ".profrep");
    if (!output_path_allowed(report_path, force, &problem)) throw cli::UsageError(problem);
  }
  const std::string session_name = command.value_or("session-new", std::to_string(app.pid()));
  const std::string display = AppLauncher::display(command.app);
  // Other prof processes see the session through its control socket.
  std::unique_ptr<SessionControl> control = open_session_control(
      command,
      {session_name, "", app.pid(), display,
       report_path.empty() ? "-" : std::filesystem::absolute(report_path).string(), ""},
      console);
  const std::string host = host_name();
  core::CaptureContext capture{catalog, bus, console,
                               prof_session_info{sizeof(prof_session_info), session_name.c_str(),
                                                 app.pid(), display.c_str(), host.c_str()}};
  anchor_session(capture.session);
  std::unique_ptr<core::ShmEventSource> shared_events;
  if (agent) {
    try {
      shared_events = shared_event_source(*agent, agent_bus_config(command, buffers), capture);
    } catch (const std::exception &e) {
      print_error(e.what());
      return kExitFailure;
    }
  }

  // What the runner's controller and exporters refer to outlives it.
  SessionDetails details;
  std::optional<WindowReports> reports;
  const DetachSignal detach; // readable when the application should go on unprofiled
  core::CaptureRunner runner(capture, session_name);
  if (const std::string error = assemble_runner(runner, control, shared_events.get(), selection);
      !error.empty()) {
    print_error(error);
    return kExitFailure;
  }
  capture.session.start_ns = core::session_now_ns();
  const report::Header header =
      report_header(command, session_name, app.pid(), selection, process_sources, capture.session);
  details.describe(header, capture.session); // exporters read it through their session info
  reports.emplace(plan.windowed() || report_path.empty() ? report_pattern : report_path, force,
                  header, app.pid(), host);
  if (plan.windowed() && report_pattern.empty())
    console.line("no report will be written (give -o NAME, or name each window with "
                 "'prof start -o NAME'); exporters see every window");
  const int app_pid = app.pid();
  // The end of --duration signals the application prof started (or lets it run on).
  core::CaptureController *controller = start_windows(
      runner, plan, *reports,
      [app_pid, fd = detach.fd](int signal) {
        if (signal != 0)
          kill(app_pid, signal);
        else
          signal_detach(fd);
      },
      control.get());
  if (controller == nullptr) return kExitFailure;
  console.line("PROF is profiling process " + std::to_string(app.pid()) + ", command: " + display);
  held.released = true;
  const bool launched = app.release();
  if (!launched) console.warning(app.error());
  AppExit exit;
  {
    std::unique_ptr<Prompt> prompt;
    if (plan.interactive && launched)
      prompt = std::make_unique<Prompt>(*controller, plan.prompt_timeout, detach.fd);
    exit = app.wait_all({command.value_or("wait", "all") == "primary", detach.fd});
  }
  control.reset(); // no command may reach the controller from here on
  if (exit.running)
    console.line("prof detached; application " + std::to_string(app.pid()) + " runs on");

  ProgressBar progress(console, "process profile data");
  progress.update(0.1);
  runner.stop();
  progress.update(0.6);
  int status = launched && !exit.running ? exit.code : launched ? kExitOk : kExitFailure;
  if (!runner.finish(exit.running ? 0 : exit.code, exit.running ? 0 : exit.signal,
                     [&progress] { progress.finish(); }) &&
      status == 0)
    status = kExitFailure;
  if (exit.signal != 0)
    console.line("application was killed by signal " + signal_text(exit.signal));
  else if (launched && exit.code != 0)
    console.line("application exited with code " + std::to_string(exit.code));
  return status;
}

} // namespace prof::tool
