// Pieces a launched capture and an attach share: buffer sizes from the
// options, the clock anchor, the report header, the check of process-scope
// sources, the start of the drain, and the exporters' end.
#pragma once

#include "core/capture/capture_runner.hpp"
#include "core/catalog.hpp"
#include "core/console.hpp"
#include "core/event_bus.hpp"
#include "core/event_sink.hpp"
#include "core/exporter_instance.hpp"
#include "core/report/report_model.hpp"
#include "core/session.hpp"
#include "tools/prof/cli/command_line.hpp"
#include "tools/prof/plugin_selection.hpp"
#include "tools/prof/session_control.hpp"
#include "tools/prof/window_reports.hpp"

#include <memory>
#include <string>
#include <vector>

namespace prof::core {
class CaptureController;
class EventPump;
class ShmEventSource;
} // namespace prof::core

namespace prof::tool {

class AgentSetup;

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

/// The header every report of the capture starts with; it names the
/// sources that run here, those in the application, and the exporters.
report::Header report_header(const cli::CommandLine &command, const std::string &session, int pid,
                             const PluginSelection &selection,
                             const std::vector<SelectedPlugin> &process_sources,
                             const prof_session_info &info);

/// The session's control socket, or null (said on the console) when it
/// cannot be listed; throws cli::UsageError when --session-new named it.
std::unique_ptr<SessionControl> open_session_control(const cli::CommandLine &command,
                                                     SessionFacts facts, core::Console &console);

/// Configures each process-scope source once in prof, so a bad option is
/// exit 2 before anything runs. Throws cli::UsageError.
void check_process_sources(const std::vector<SelectedPlugin> &sources, core::Catalog &catalog,
                           core::EventBus &bus, core::Console &console);

/// Makes eventfd `fd` readable (async-signal-safe): how prof is told to
/// stop waiting for the application and leave it running.
void signal_detach(int fd);

/// An eventfd prof waits on besides the application: readable when prof
/// should stop waiting and let the application run on.
struct DetachSignal {
  DetachSignal();
  ~DetachSignal();
  DetachSignal(const DetachSignal &) = delete;
  DetachSignal &operator=(const DetachSignal &) = delete;
  int fd;
};

/// The selected plugins as the capture runner takes them.
std::vector<core::PluginChoice> choices_of(const std::vector<SelectedPlugin> &selected);

/// Fills `runner` for launch and attach alike: the session socket closes
/// first when it stops (its thread may be in the controller), the
/// application's rings (`shared`, may be null), then the selected sources and
/// exporters. "" or the first error.
std::string assemble_runner(core::CaptureRunner &runner, std::unique_ptr<SessionControl> &control,
                            core::ShmEventSource *shared, const PluginSelection &selection);

/// Gives `runner` its collection windows (writing through `reports`), tells
/// the session socket about the controller and starts the capture;
/// `end_application` is what the end of --duration does to the application.
/// The controller, or nullptr once the reason is printed.
core::CaptureController *start_windows(core::CaptureRunner &runner, const core::CapturePlan &plan,
                                       WindowReports &reports,
                                       core::CaptureController::EndApplication end_application,
                                       SessionControl *control);

/// The application's shared rings, in the region `agent` creates with
/// `buffers`; warns when fewer rings fit than asked for. Throws on failure.
std::unique_ptr<core::ShmEventSource> shared_event_source(AgentSetup &agent,
                                                          const core::EventBusConfig &buffers,
                                                          core::CaptureContext &capture);

} // namespace prof::tool
