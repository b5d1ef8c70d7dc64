#include "tools/prof/capture_parts.hpp"

#include "core/capture/capture_controller.hpp"
#include "core/event_pump.hpp"
#include "core/session_clock.hpp"
#include "core/shm_event_source.hpp"
#include "core/source_instance.hpp"
#include "tools/prof/app_launcher.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
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
                             const std::vector<SelectedPlugin> &plugins,
                             const prof_session_info &info) {
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

std::string add_sources(const std::vector<SelectedPlugin> &sources, core::CaptureContext &capture,
                        core::Session &session) {
  for (const SelectedPlugin &selected : sources) {
    auto source =
        std::make_unique<core::SourceInstance>(*selected.plugin, selected.options, capture);
    if (!source->create() || !source->configure()) return source->error();
    session.add_source(std::move(source));
  }
  return "";
}

void signal_detach(int fd) {
  const uint64_t one = 1;
  (void)!write(fd, &one, sizeof one);
}

void start_drain(core::EventPump &pump, core::ShmEventSource *shared,
                 core::CaptureController &controller) {
  if (shared) pump.add_source(*shared);
  pump.set_before_drain(controller);
  pump.start();
}

void warn_lost_definitions(const core::ShmEventSource *shared, core::Console &console) {
  if (!shared) return;
  if (const uint64_t lost = shared->catalog_overflow())
    console.warning(std::to_string(lost) + " definitions from the application were lost: "
                                           "the shared catalog was full");
}

std::vector<core::EventSink *>
sinks_of(const std::vector<std::unique_ptr<core::ExporterInstance>> &exporters) {
  std::vector<core::EventSink *> sinks;
  for (const auto &exporter : exporters)
    sinks.push_back(exporter.get());
  return sinks;
}

std::vector<std::unique_ptr<core::ExporterInstance>>
open_exporters(const std::vector<SelectedPlugin> &selected, core::Catalog &catalog,
               core::Console &console, const prof_session_info &session) {
  std::vector<std::unique_ptr<core::ExporterInstance>> exporters;
  for (const SelectedPlugin &plugin : selected) {
    auto exporter = std::make_unique<core::ExporterInstance>(*plugin.plugin, plugin.options,
                                                             catalog, console, session);
    if (!exporter->open()) throw std::runtime_error(exporter->error());
    exporters.push_back(std::move(exporter));
  }
  return exporters;
}

bool finish_exporters(std::vector<std::unique_ptr<core::ExporterInstance>> &exporters,
                      const core::Catalog &catalog, const core::CaptureEnd &end,
                      core::Console &console) {
  bool ok = true;
  for (auto &exporter : exporters) {
    exporter->finish(catalog, end);
    if (exporter->failed()) {
      print_error(exporter->error());
      ok = false;
    }
  }
  // The summary states drops in its own output; without one, say it here.
  const bool summary_states_drops =
      std::any_of(exporters.begin(), exporters.end(),
                  [](const auto &e) { return e->plugin().name == "summary"; });
  if (end.dropped > 0 && !summary_states_drops)
    console.warning(std::to_string(end.dropped) + " events were dropped because rings were full; "
                                                  "raise --host-ringbuffer-size");
  return ok;
}

} // namespace prof::tool
