// Drives a capture's collection windows: at launch, after --delay, for
// --duration (rotating), on the application's capture requests
// (--capture-range), and on commands from the control socket or the
// prompt. Commands are queued and take effect on the drain thread just
// before a drain, so each window holds exactly the events of its interval. The
// pump reaches it as its DrainHook, so the capture's decisions stay in core.
#pragma once

#include "core/capture/capture_plan.hpp"
#include "core/capture/capture_windows.hpp"
#include "core/capture/step_alignment.hpp"
#include "core/capture/unfinished_ask.hpp"
#include "core/control/control_message.hpp"
#include "core/events/event_pump.hpp"
#include "core/plugin_host/console.hpp"
#include "core/runtime/capture_requests.hpp"

#include <atomic>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace prof::core {

class CaptureController final : public DrainHook {
public:
  /// Ends the application's profiling: sends `signal` to the application,
  /// or with 0 leaves it running and lets prof go.
  using EndApplication = std::function<void(int signal)>;
  /// Totals of the capture so far, for reports of windows that end early.
  using Progress = std::function<core::CaptureEnd()>;
  /// Told whether prof's own sources are needed (true) or may rest (false).
  using SourcesNeeded = std::function<void(bool needed)>;

  CaptureController(const CapturePlan &plan, const core::Catalog &catalog,
                    std::vector<core::EventSink *> shared, core::CaptureWindows::OpenOutput open,
                    core::Console &console, EndApplication end_application, Progress progress);

  /// The sink the drain thread feeds.
  core::CaptureWindows &windows() { return windows_; }
  /// Whenever no window needs events (collection off, and no stopped window
  /// waiting for late ones), `switch_sources` is told to let the sources
  /// rest, and told again before a window opens. Not with --capture-range:
  /// the application opens its windows at times prof learns only later.
  void on_sources_needed(SourcesNeeded switch_sources);
  /// Told the path of each flight recorder dump once it is written, on the
  /// drain thread (prof splits it per process).
  void on_dump(std::function<void(const std::string &path)> dumped) { dumped_ = std::move(dumped); }
  /// Reads the application's capture requests too; with a flight recorder,
  /// its agents are asked for their unfinished slices at each dump.
  void add_requests(core::ShmHeader &header);
  /// Call once, with the session clock at launch, before the drain starts.
  void launched(uint64_t at_ns);

  /// From any thread: applies a command on the drain thread and returns the
  /// answer ("ok ..." / "error ..."), or an error after `timeout`.
  std::string command(control::Command command, const std::string &argument,
                      std::chrono::milliseconds timeout = std::chrono::seconds(5));
  /// On the drain thread before each drain (EventPump::set_before_drain).
  void before_drain() override;
  /// Takes the applications' capture requests again: one posted before the
  /// events of a drained batch (prof_stop, then more work) ends the window
  /// before they are routed, however late the drain came.
  void before_deliver() override { take_requests(); }
  /// From any thread: with --capture-steps, only `processes` joined (the
  /// others asked refused), so S is picked without waiting for the rest.
  void steps_joined(size_t processes);
  /// The drain has stopped: commands get an error from now on.
  void close();

  /// "waiting", "running" or "suspended".
  std::string state() const;
  /// The report of the current or else the latest window, "" before any.
  std::string output() const;
  /// Windows started so far.
  uint32_t windows_started() const { return started_.load(); }
  /// Whether a window's report could not be written (said on the console).
  bool report_failed() const { return report_failed_.load(); }
  /// With --capture-steps, when each process began and ended its steps;
  /// read once the drain has stopped.
  const StepAlignment &steps() const { return steps_; }
  /// Whether a start came (from any trigger) since launch.
  bool ever_started() const { return started_.load() > 0; }

private:
  struct Pending {
    control::Command command;
    std::string argument;
    std::promise<std::string> answer;
  };
  std::string apply(control::Command command, const std::string &argument, uint64_t now);
  void take_requests();
  void range_begins(uint64_t ts);
  void range_ends(uint64_t ts);
  bool matches_annotation(const core::CaptureRequest &request) const;
  void take_step_request(const core::CaptureRequest &request);
  void pick_steps(uint64_t now);
  void step_heard(const core::CaptureRequest &request);
  void stall_heard(const core::CaptureRequest &request);
  void watch_hangs(uint64_t now);
  void ask_for_dump(uint64_t now);
  void write_dump();
  void window_finished(uint32_t index, const std::string &path, const std::string &error);
  void publish_state();
  void update_sources(uint64_t now);

  CapturePlan plan_;
  core::Console &console_;
  EndApplication end_application_;
  Progress progress_;
  core::CaptureWindows windows_;
  std::vector<core::CaptureRequestReader> requests_;
  uint64_t launch_ns_ = 0;
  bool delay_done_ = false;
  bool duration_done_ = false;
  uint64_t window_start_ns_ = 0;
  uint32_t ranges_ = 0;
  StepAlignment steps_;
  struct LastStep {
    uint64_t number = 0, ts = 0;
    bool dumped = false;
  };
  std::map<int, LastStep> last_steps_; ///< --hang-timeout: each process's latest step
  uint64_t hang_dumped_ns_ = 0;        ///< --hang-timeout: when a hang was last dumped
  /// A dump asked for (prof dump, a hang), written once the agents answered.
  struct PendingDump {
    std::vector<std::promise<std::string>> answers; ///< of `prof dump` commands
    std::vector<std::string> hangs;                 ///< console lines of hangs, before the path
  } dump_;
  UnfinishedAsk unfinished_;
  bool ranges_done_ = false;
  bool shutdown_pending_ = false;
  bool ending_ = false;             ///< a shutdown came: windows finish with the capture
  std::deque<std::string> rotated_; ///< finished reports, oldest first
  SourcesNeeded switch_sources_;
  std::function<void(const std::string &)> dumped_;
  bool sources_needed_ = true; ///< the sources run from their start

  mutable std::mutex mutex_;
  std::deque<Pending> pending_;
  std::optional<size_t> step_processes_joined_;
  bool closed_ = false;
  std::string state_ = "waiting";
  std::string output_;
  std::atomic<uint32_t> started_{0};
  std::atomic<bool> report_failed_{false};
};

} // namespace prof::core
