// Pieces a launched capture and an attach share: buffer sizes from the
// options, the clock anchor, the report header, the check of process-scope
// sources, the start of the drain, and the exporters' end.
#pragma once

#include "core/catalog.hpp"
#include "core/console.hpp"
#include "core/event_bus.hpp"
#include "core/event_sink.hpp"
#include "core/exporter_instance.hpp"
#include "core/report/report_model.hpp"
#include "core/session.hpp"
#include "tools/prof/cli/command_line.hpp"
#include "tools/prof/plugin_selection.hpp"

#include <memory>
#include <string>
#include <vector>

namespace prof::core {
class CaptureController;
class EventPump;
class ShmEventSource;
} // namespace prof::core

namespace prof::tool {

std::string host_name();

/// Ring sizes of prof's own threads (--host-buffer-size, --host-ringbuffer-size,
/// --watermark-threshold).
core::EventBusConfig bus_config(const cli::CommandLine &command);
/// Rings of the application's threads in shared memory.
core::EventBusConfig agent_bus_config(const cli::CommandLine &command,
                                      const core::EventBusConfig &buffers);

/// CLOCK_REALTIME paired with the session clock read around it: what lets
/// reports of several hosts be merged.
report::ClockAnchor read_clock_anchor();
/// Sets `session`'s anchor fields from read_clock_anchor().
void anchor_session(prof_session_info &session);

/// Creates and configures each of `sources` into `session`; "" or the first error.
std::string add_sources(const std::vector<SelectedPlugin> &sources, core::CaptureContext &capture,
                        core::Session &session);

report::Header report_header(const cli::CommandLine &command, const std::string &session, int pid,
                             const std::vector<SelectedPlugin> &plugins,
                             const prof_session_info &info);

/// Configures each process-scope source once in prof, so a bad option is
/// exit 2 before anything runs. Throws cli::UsageError.
void check_process_sources(const std::vector<SelectedPlugin> &sources, core::Catalog &catalog,
                           core::EventBus &bus, core::Console &console);

/// Makes eventfd `fd` readable (async-signal-safe): how prof is told to
/// stop waiting for the application and leave it running.
void signal_detach(int fd);

/// Starts `pump` draining into the controller's windows, from the agents'
/// region `shared` too when there is one; commands apply before each drain.
void start_drain(core::EventPump &pump, core::ShmEventSource *shared,
                 core::CaptureController &controller);

/// Warns when the application's definitions (tracks, strings) did not fit
/// the shared catalog; `shared` may be null.
void warn_lost_definitions(const core::ShmEventSource *shared, core::Console &console);

/// The exporters as the sinks every collection window feeds.
std::vector<core::EventSink *>
sinks_of(const std::vector<std::unique_ptr<core::ExporterInstance>> &exporters);

/// Opens the selected exporters; throws std::runtime_error with the first failure.
std::vector<std::unique_ptr<core::ExporterInstance>>
open_exporters(const std::vector<SelectedPlugin> &selected, core::Catalog &catalog,
               core::Console &console, const prof_session_info &session);

/// Finishes the exporters and warns of drops the summary does not state;
/// returns false when an exporter failed (its error printed).
bool finish_exporters(std::vector<std::unique_ptr<core::ExporterInstance>> &exporters,
                      const core::Catalog &catalog, const core::CaptureEnd &end,
                      core::Console &console);

} // namespace prof::tool
