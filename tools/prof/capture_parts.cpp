#include "tools/prof/capture_parts.hpp"

#include "core/session_clock.hpp"
#include "core/shm_event_source.hpp"
#include "core/source_instance.hpp"
#include "tools/prof/agent_setup.hpp"
#include "tools/prof/app_launcher.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <sys/eventfd.h>
#include <unistd.h>

namespace prof::tool {

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
      static_cast<uint64_t>(
          command.int_or("watermark-threshold",
                         std::min<long>(15, command.int_or("host-ringbuffer-size", 16) - 1))) *
      mib;
  const uint64_t host_buffer =
      static_cast<uint64_t>(command.int_or("host-buffer-size", 1024)) * mib;
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

report::ClockAnchor read_clock_anchor() {
  report::ClockAnchor anchor;
  const uint64_t before = core::session_now_ns();
  anchor.realtime_ns = core::realtime_now_ns();
  const uint64_t after = core::session_now_ns();
  anchor.monotonic_ns = before + (after - before) / 2;
  return anchor;
}

report::Header report_header(const cli::CommandLine &command, const std::string &session, int pid,
                             const PluginSelection &selection,
                             const std::vector<SelectedPlugin> &process_sources,
                             const prof_session_info &info) {
  std::vector<SelectedPlugin> plugins = selection.sources;
  plugins.insert(plugins.end(), process_sources.begin(), process_sources.end());
  plugins.insert(plugins.end(), selection.exporters.begin(), selection.exporters.end());
  report::Header header;
  header.session_name = session;
  header.argv = command.app;
  header.command_display = AppLauncher::display(command.app);
  header.pids = {pid};
  header.host_name = host_name();
  for (const SelectedPlugin &p : plugins) {
    report::PluginRecord record{p.plugin->name, p.plugin->version, {}};
    for (const auto &[key, value] : p.options.effective())
      record.options.emplace_back(key, value);
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

// Process-scope sources run inside the application, where a bad option could
// only be reported after it started: each is configured here first, so a bad
// filter string stops prof before anything runs.
std::unique_ptr<SessionControl> open_session_control(const cli::CommandLine &command,
                                                     SessionFacts facts, core::Console &console) {
  const std::string name = facts.name;
  try {
    return std::make_unique<SessionControl>(std::move(facts));
  } catch (const std::exception &e) {
    // A name the user gave must be the session's; a default one may go unlisted.
    if (command.has("session-new"))
      throw cli::UsageError("--session-new " + name + ": " + e.what());
    console.warning(std::string("the session cannot be listed: ") + e.what());
    return nullptr;
  }
}

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

void anchor_session(prof_session_info &session) {
  const report::ClockAnchor anchor = read_clock_anchor();
  session.realtime_anchor_ns = anchor.realtime_ns;
  session.monotonic_anchor_ns = anchor.monotonic_ns;
}

void signal_detach(int fd) {
  const uint64_t one = 1;
  (void)!write(fd, &one, sizeof one);
}

DetachSignal::DetachSignal() : fd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

DetachSignal::~DetachSignal() {
  if (fd >= 0) close(fd);
}

std::vector<core::PluginChoice> choices_of(const std::vector<SelectedPlugin> &selected) {
  std::vector<core::PluginChoice> choices;
  for (const SelectedPlugin &s : selected)
    choices.push_back({s.plugin, s.options});
  return choices;
}

std::unique_ptr<core::ShmEventSource> shared_event_source(AgentSetup &agent,
                                                          const core::EventBusConfig &buffers,
                                                          core::CaptureContext &capture) {
  core::ShmRegion &region = agent.create_region(buffers, capture.session);
  if (const uint32_t wanted = AgentSetup::ring_count_for(buffers);
      region.header()->ring_count < wanted)
    capture.console.warning("shared memory holds only " +
                            std::to_string(region.header()->ring_count) +
                            " rings for the application's threads (asked for " +
                            std::to_string(wanted) + "); lower --host-ringbuffer-size");
  return std::make_unique<core::ShmEventSource>(region, capture.catalog);
}

std::string assemble_runner(core::CaptureRunner &runner, std::unique_ptr<SessionControl> &control,
                            core::ShmEventSource *shared, const PluginSelection &selection) {
  runner.before_stop([&control] { control.reset(); });
  if (shared) runner.add_shared(*shared);
  std::string error = runner.add_sources(choices_of(selection.sources));
  if (error.empty()) error = runner.open_exporters(choices_of(selection.exporters));
  return error;
}

core::CaptureController *start_windows(core::CaptureRunner &runner, const core::CapturePlan &plan,
                                       WindowReports &reports,
                                       core::CaptureController::EndApplication end_application,
                                       SessionControl *control) {
  core::CaptureController *controller = nullptr;
  try {
    controller = &runner.control(
        plan,
        [&reports](const core::WindowFacts &facts, std::string *error) {
          return reports.open(facts, error);
        },
        std::move(end_application));
  } catch (const std::exception &e) { // the first window cannot open
    print_error(e.what());
    return nullptr;
  }
  if (control) control->set_controller(controller);
  if (const std::string error = runner.start(); !error.empty()) {
    print_error(error);
    return nullptr;
  }
  return controller;
}

} // namespace prof::tool
