// Pieces of CaptureFrontEnd: buffer sizes from the options, the report
// header, the session socket, the check of process-scope sources, the
// detach signal and the application's shared rings.
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

/// The session's control socket, or null (said on the console) when it
/// cannot be listed; throws cli::UsageError when --session-new named it.
std::unique_ptr<SessionControl> open_session_control(const cli::CommandLine &command,
                                                     SessionFacts facts, core::Console &console);

/// Configures each process-scope source once in prof, so a bad option is
/// exit 2 before anything runs. Throws cli::UsageError.
void check_process_sources(const std::vector<SelectedPlugin> &sources,
                           core::CaptureContext &capture);

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

/// The application's shared rings, in the region `agent` creates with
/// `buffers`; warns when fewer rings fit than asked for. Throws on failure.
std::unique_ptr<core::ShmEventSource> shared_event_source(AgentSetup &agent,
                                                          const core::EventBusConfig &buffers,
                                                          core::CaptureContext &capture);

} // namespace prof::tool
