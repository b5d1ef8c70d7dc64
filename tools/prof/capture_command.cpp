#include "tools/prof/capture_command.hpp"

#include "core/event_bus.hpp"
#include "core/event_pump.hpp"
#include "core/exporter_instance.hpp"
#include "core/report_sink.hpp"
#include "core/session.hpp"
#include "core/session_clock.hpp"
#include "core/shm_event_source.hpp"
#include "tools/prof/agent_setup.hpp"
#include "tools/prof/app_launcher.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/output_name.hpp"
#include "tools/prof/plugin_selection.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/session_control.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::tool {

namespace {

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

core::EventBusConfig bus_config(const cli::CommandLine &command) {
  core::EventBusConfig config;
  const uint64_t mib = 1ull << 20;
  config.ring_bytes = static_cast<uint64_t>(command.int_or("host-ringbuffer-size", 16)) * mib;
  // Without --watermark-threshold, the default (15 MB) follows a smaller ring.
  config.watermark_bytes =
      static_cast<uint64_t>(command.int_or("watermark-threshold",
                                           std::min<long>(15, command.int_or("host-ringbuffer-size", 16) - 1))) *
      mib;
  const uint64_t host_buffer = static_cast<uint64_t>(command.int_or("host-buffer-size", 1024)) * mib;
  // The host buffer is shared out as per-thread rings.
  config.ring_count = static_cast<uint32_t>(std::max<uint64_t>(2, host_buffer / config.ring_bytes));
  return config;
}

// The application's threads get rings of their own in shared memory, which
// is reserved up front (a full /dev/shm must not SIGBUS the application) and
// costs time to reserve and unmap: 16 rings of 16 MB took 70 ms on a 2-core
// VM. Drained every millisecond, 4 MB (87k events) per thread is ample unless
// the user sizes the rings.
core::EventBusConfig agent_bus_config(const cli::CommandLine &command,
                                      const core::EventBusConfig &buffers) {
  core::EventBusConfig config = buffers;
  if (command.has("host-ringbuffer-size")) return config;
  const uint64_t mib = 1ull << 20;
  config.ring_bytes = std::min<uint64_t>(buffers.ring_bytes, 4 * mib);
  config.watermark_bytes = std::min(config.watermark_bytes, config.ring_bytes - mib);
  return config;
}

// CLOCK_REALTIME paired with the session clock read around it: what lets
// reports of several hosts be merged.
report::ClockAnchor read_clock_anchor() {
  report::ClockAnchor anchor;
  const uint64_t before = core::session_now_ns();
  anchor.realtime_ns = core::realtime_now_ns();
  const uint64_t after = core::session_now_ns();
  anchor.monotonic_ns = before + (after - before) / 2;
  return anchor;
}

report::Header report_header(const cli::CommandLine &command, const std::string &session,
                             int pid, const std::vector<SelectedPlugin> &plugins,
                             const prof_session_info &info) {
  report::Header header;
  header.session_name = session;
  header.argv = command.app;
  header.command_display = AppLauncher::display(command.app);
  header.pids = {pid};
  header.host_name = host_name();
  for (const SelectedPlugin &p : plugins) {
    report::PluginRecord record{p.plugin->name, p.plugin->version, {}};
    for (const auto &[key, value] : p.options.effective()) record.options.emplace_back(key, value);
    header.plugins.push_back(std::move(record));
  }
  header.clock_anchor = {info.realtime_anchor_ns, info.monotonic_anchor_ns};
  header.session_start_ns = info.start_ns;
  // prof runs under the launcher (mpirun, torchrun, srun), which tells it its rank.
  for (const char *variable : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char *rank = std::getenv(variable); rank && *rank) {
      header.rank = rank;
      break;
    }
  return header;
}

// Ends an application still held at its gate: it never ran user code.
void discard_held_app(AppLauncher &app) {
  if (app.pid() <= 0) return;
  kill(app.pid(), SIGKILL);
  waitpid(app.pid(), nullptr, 0);
}

std::string signal_text(int signal) {
  const char *name = sigabbrev_np(signal);
  const char *what = strsignal(signal);
  return std::to_string(signal) + (name ? std::string(" (SIG") + name + ": " + what + ")" : "");
}

// Process-scope sources run inside the application, where a bad option could
// only be reported after it started: each is configured here first, so a bad
// filter string stops prof before anything runs.
void check_process_sources(const std::vector<SelectedPlugin> &sources, core::Catalog &catalog,
                           core::EventBus &bus, core::Console &console) {
  core::CaptureContext context{catalog, bus, console,
                               prof_session_info{sizeof(prof_session_info), "check", 0, "", ""}};
  for (const SelectedPlugin &selected : sources) {
    core::SourceInstance source(*selected.plugin, selected.options, context);
    if (!source.create()) throw std::runtime_error(source.error());
    if (!source.configure()) throw cli::UsageError(source.error());
  }
}

} // namespace

std::string report_output_path(const cli::CommandLine &command) {
  if (const std::string *path = command.value("export-profile")) return *path;
  // topsprof's raw data is, in prof, the native report.
  if (const std::string *path = command.value("export-rawdata")) return *path;
  if (const std::string *name = command.value("output")) {
    return std::filesystem::path(*name).has_extension() ? *name : *name + ".profrep";
  }
  return "";
}

int run_capture(const RunContext &context) {
  const cli::CommandLine &command = context.command;
  core::Console &console = context.console;

  // Everything that can be wrong with the input is found before anything starts.
  PluginSelection selection = select_plugins(command, context.registry);
  // System-scope sources run here; process-scope ones inside the application.
  std::vector<SelectedPlugin> process_sources;
  std::erase_if(selection.sources, [&](const SelectedPlugin &source) {
    if (source.plugin->scope != PROF_SCOPE_PROCESS) return false;
    process_sources.push_back(source);
    return true;
  });
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
  if (!process_sources.empty()) {
    try {
      agent = std::make_unique<AgentSetup>(process_sources);
    } catch (const std::exception &e) {
      print_error(e.what());
      return kExitFailure;
    }
  }
  AppLauncher app;
  if (!app.spawn(command.app, command.value_or("show-output", "true") == "true",
                 agent ? agent->environment() : std::vector<std::string>{})) {
    print_error(app.error());
    return kExitFailure;
  }
  console.set_pid(app.pid());
  if (has_output_macros(report_pattern)) {
    try {
      report_path = expand_output_name(report_pattern, {app.pid(), host_name(), std::time(nullptr)},
                                       ".profrep");
      if (!output_path_allowed(report_path, force, &problem)) throw cli::UsageError(problem);
    } catch (const cli::UsageError &) {
      discard_held_app(app);
      throw;
    }
  }
  const std::string session_name = command.value_or("session-new", std::to_string(app.pid()));
  const std::string display = AppLauncher::display(command.app);
  // Other prof processes see the session through its control socket.
  std::unique_ptr<SessionControl> control;
  try {
    control = std::make_unique<SessionControl>(SessionFacts{
        session_name, "", app.pid(), display,
        report_path.empty() ? "-" : std::filesystem::absolute(report_path).string(), ""});
  } catch (const std::exception &e) {
    if (command.has("session-new")) {
      discard_held_app(app);
      throw cli::UsageError("--session-new " + session_name + ": " + e.what());
    }
    console.warning(std::string("the session cannot be listed: ") + e.what());
  }
  const std::string host = host_name();
  core::CaptureContext capture{catalog, bus, console,
                               prof_session_info{sizeof(prof_session_info), session_name.c_str(),
                                                 app.pid(), display.c_str(), host.c_str()}};
  const report::ClockAnchor anchor = read_clock_anchor();
  capture.session.realtime_anchor_ns = anchor.realtime_ns;
  capture.session.monotonic_anchor_ns = anchor.monotonic_ns;

  std::unique_ptr<core::ShmEventSource> shared_events;
  if (agent) {
    try {
      const core::EventBusConfig agent_buffers = agent_bus_config(command, buffers);
      core::ShmRegion &region = agent->create_region(agent_buffers, capture.session);
      if (const uint32_t wanted = AgentSetup::ring_count_for(agent_buffers);
          region.header()->ring_count < wanted)
        console.warning("shared memory holds only " + std::to_string(region.header()->ring_count) +
                        " rings for the application's threads (asked for " +
                        std::to_string(wanted) + "); lower --host-ringbuffer-size");
      shared_events = std::make_unique<core::ShmEventSource>(region, catalog);
    } catch (const std::exception &e) {
      discard_held_app(app);
      print_error(e.what());
      return kExitFailure;
    }
  }

  core::Session session(session_name);
  for (const SelectedPlugin &selected : selection.sources) {
    auto source = std::make_unique<core::SourceInstance>(*selected.plugin, selected.options, capture);
    if (!source->create() || !source->configure()) {
      discard_held_app(app);
      print_error(source->error());
      return kExitFailure;
    }
    session.add_source(std::move(source));
  }
  std::vector<std::unique_ptr<core::ExporterInstance>> exporters;
  for (const SelectedPlugin &selected : selection.exporters) {
    auto exporter = std::make_unique<core::ExporterInstance>(*selected.plugin, selected.options,
                                                             catalog, console, capture.session);
    if (!exporter->open()) {
      discard_held_app(app);
      print_error(exporter->error());
      return kExitFailure;
    }
    exporters.push_back(std::move(exporter));
  }

  capture.session.start_ns = core::session_now_ns();
  std::vector<SelectedPlugin> all_plugins = selection.sources;
  all_plugins.insert(all_plugins.end(), process_sources.begin(), process_sources.end());
  all_plugins.insert(all_plugins.end(), selection.exporters.begin(), selection.exporters.end());
  report::ReportWriter writer;
  std::unique_ptr<core::ReportSink> report_sink;
  if (!report_path.empty()) {
    try {
      writer.open(report_path, report_header(command, session_name, app.pid(), all_plugins, capture.session),
                  force);
    } catch (const std::exception &e) {
      discard_held_app(app);
      print_error(e.what());
      return kExitFailure;
    }
    report_sink = std::make_unique<core::ReportSink>(writer);
  }
  std::vector<core::EventSink *> sinks;
  if (report_sink) sinks.push_back(report_sink.get());
  for (auto &exporter : exporters) sinks.push_back(exporter.get());

  core::EventPump pump(bus, catalog, sinks);
  if (shared_events) pump.add_source(*shared_events);
  pump.start();
  if (!session.start()) {
    discard_held_app(app);
    pump.stop();
    print_error(session.error());
    return kExitFailure;
  }
  console.line("PROF is profiling process " + std::to_string(app.pid()) + ", command: " + display);
  const bool launched = app.release();
  if (!launched) console.warning(app.error());
  const AppExit exit = app.wait_all();

  if (!session.stop()) console.warning(session.error());
  ProgressBar progress(console, "process profile data");
  progress.update(0.1);
  pump.stop();
  progress.update(0.6);
  core::CaptureEnd end{core::session_now_ns(), pump.events(), bus.dropped(), bus.drops(),
                       exit.code, exit.signal};
  if (shared_events) {
    end.dropped += shared_events->dropped();
    for (const core::RingDrops &d : shared_events->drops()) end.drops.push_back(d);
    if (uint64_t lost = shared_events->catalog_overflow())
      console.warning(std::to_string(lost) + " definitions from the application were lost: "
                      "the shared catalog was full");
  }
  if (report_sink) report_sink->finish(catalog, end);
  progress.finish();
  int status = launched ? exit.code : kExitFailure;
  for (auto &exporter : exporters) {
    exporter->finish(catalog, end);
    if (exporter->failed()) {
      print_error(exporter->error());
      if (status == 0) status = kExitFailure;
    }
  }
  // The summary states drops in its own output; without one, say it here.
  const bool summary_states_drops = std::any_of(exporters.begin(), exporters.end(),
                                                [](const auto &e) { return e->plugin().name == "summary"; });
  if (end.dropped > 0 && !summary_states_drops)
    console.warning(std::to_string(end.dropped) + " events were dropped because rings were full; "
                    "raise --host-ringbuffer-size");
  if (report_sink) {
    if (!report_sink->error().empty()) {
      print_error(report_sink->error());
      if (status == 0) status = kExitFailure;
    } else {
      console.line("Generated: " + std::filesystem::absolute(report_path).string());
    }
  }
  if (exit.signal != 0)
    console.line("application was killed by signal " + signal_text(exit.signal));
  else if (launched && exit.code != 0)
    console.line("application exited with code " + std::to_string(exit.code));
  return status;
}

} // namespace prof::tool
