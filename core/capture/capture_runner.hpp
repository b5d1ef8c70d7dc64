// One capture's runtime: the catalog and prof's own rings, the session and
// its sources, the application's shared rings, the exporters, the collection
// controller with its window reports and sources switch, and the drain.
// Front ends (prof profile/launch, prof attach) find the processes and hand
// over the rest. identify(), start(), stop() and finish() run in that order;
// the destructor stops whatever was started, in the right order, on every
// exit path.
#pragma once

#include "core/capture/capture_controller.hpp"
#include "core/capture/session.hpp"
#include "core/capture/sources_switch.hpp"
#include "core/capture/window_reports.hpp"
#include "core/catalog/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/events/event_pump.hpp"
#include "core/plugin_host/exporter_instance.hpp"
#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "core/plugin_host/source_instance.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prof::core {

class ShmEventSource;

/// A plugin chosen for a capture, with its checked options.
struct PluginChoice {
  const PluginInfo *plugin = nullptr;
  OptionValues options;
};

/// Who a capture profiles, as sources, exporters and reports are told.
struct SessionIdentity {
  std::string name;    ///< the session's name (prof sessions lists it)
  int pid = 0;         ///< the first profiled process
  std::string command; ///< its command line as shown
  std::string host;
};

class CaptureRunner {
public:
  /// `buffers` sizes prof's own rings; `console` outlives the runner.
  CaptureRunner(const EventBusConfig &buffers, Console &console);
  ~CaptureRunner();
  CaptureRunner(const CaptureRunner &) = delete;
  CaptureRunner &operator=(const CaptureRunner &) = delete;

  /// The catalog, rings, console and session info that sources are made with.
  CaptureContext &context() { return context_; }
  /// Names the session and pairs CLOCK_REALTIME with the session clock (what
  /// lets reports of several hosts be merged). Before add_sources().
  void identify(SessionIdentity identity);
  /// Creates and configures each source; "" or the first error.
  std::string add_sources(const std::vector<PluginChoice> &sources);
  /// Opens each exporter; "" or the first error.
  std::string open_exporters(const std::vector<PluginChoice> &exporters);
  /// Drains the application's shared rings too and reads its capture requests.
  void add_shared(std::unique_ptr<ShmEventSource> shared);
  /// Creates the controller at session start; its windows write `reports`.
  /// Throws std::runtime_error when the first window cannot open.
  CaptureController &control(const CapturePlan &plan, std::unique_ptr<WindowReports> reports,
                             CaptureController::EndApplication end_application);
  /// `hook` runs first when the capture stops: what must end before the
  /// controller closes (threads that send it commands).
  void before_stop(std::function<void()> hook) { before_stop_ = std::move(hook); }
  /// Starts the drain and the sources; "" or the session's error (then
  /// everything is stopped again).
  std::string start();
  /// Stops the sources (they flush) and the drain; the controller takes no
  /// more commands.
  void stop();
  /// Finishes every window with the capture's totals and the application's
  /// exit, then the exporters; false when a report or an exporter failed
  /// (said on stderr). `before_exporters` runs between (a progress bar ends).
  bool finish(int exit_code, int exit_signal, const std::function<void()> &before_exporters = {});

  Session &session() { return *session_; }
  /// After control().
  CaptureController &controller() { return *controller_; }
  const WindowReports &reports() const { return *reports_; }

private:
  Catalog catalog_;
  EventBus bus_;
  SessionIdentity identity_;
  CaptureContext context_;
  std::unique_ptr<Session> session_;
  std::vector<std::unique_ptr<ExporterInstance>> exporters_;
  std::unique_ptr<ShmEventSource> shared_;
  std::unique_ptr<WindowReports> reports_;
  std::unique_ptr<CaptureController> controller_;
  std::unique_ptr<SourcesSwitch> sources_switch_;
  std::unique_ptr<EventPump> pump_;
  std::function<void()> before_stop_;
  bool started_ = false;
  bool stopped_ = false;
};

} // namespace prof::core
