// One capture's runtime: the session and its sources, the exporters, the
// collection controller with its sources switch, and the drain. Front ends
// (prof profile/launch, prof attach) find the processes and hand over the
// rest. start(), stop() and finish() run in that order; the destructor
// stops whatever was started, in the right order, on every exit path.
#pragma once

#include "core/capture/capture_controller.hpp"
#include "core/capture/sources_switch.hpp"
#include "core/event_pump.hpp"
#include "core/exporter_instance.hpp"
#include "core/option_values.hpp"
#include "core/plugin_registry.hpp"
#include "core/session.hpp"
#include "core/source_instance.hpp"

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

class CaptureRunner {
public:
  /// `capture` (catalog, bus, console, session info) outlives the runner.
  CaptureRunner(CaptureContext &capture, const std::string &session_name);
  ~CaptureRunner();
  CaptureRunner(const CaptureRunner &) = delete;
  CaptureRunner &operator=(const CaptureRunner &) = delete;

  /// Creates and configures each source; "" or the first error.
  std::string add_sources(const std::vector<PluginChoice> &sources);
  /// Opens each exporter; "" or the first error.
  std::string open_exporters(const std::vector<PluginChoice> &exporters);
  /// Drains the application's shared rings too and reads its capture requests.
  void add_shared(ShmEventSource &shared);
  /// Creates the controller (windows open through `open`) at session start.
  /// Throws std::runtime_error when the first window cannot open.
  CaptureController &control(const CapturePlan &plan, CaptureWindows::OpenOutput open,
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

  Session &session() { return session_; }

private:
  CaptureContext &capture_;
  Session session_;
  std::vector<std::unique_ptr<ExporterInstance>> exporters_;
  ShmEventSource *shared_ = nullptr;
  std::unique_ptr<CaptureController> controller_;
  std::unique_ptr<SourcesSwitch> sources_switch_;
  std::unique_ptr<EventPump> pump_;
  std::function<void()> before_stop_;
  bool started_ = false;
  bool stopped_ = false;
};

} // namespace prof::core
