// Collection windows: which drained events a capture keeps, and where they
// go. Each start/stop pair is a window with its own output (its report);
// suspend/resume cut an interval out of a window; cancel discards it.
// Events are judged by their timestamp, so a window holds exactly the events
// of its interval whatever order the rings deliver them in. A stopped window
// stays open for a grace period, for events of its interval that were still
// in rings or device buffers when it stopped.
//
// Every call comes from the thread that drains (EventSink's rule).
#pragma once

#include "core/events/event_sink.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prof::core {

/// One window's destination: its report.
class WindowOutput {
public:
  virtual ~WindowOutput() = default;
  virtual EventSink &sink() = 0;
  /// Completes the output; returns "" or the error.
  virtual std::string finish(const Catalog &catalog, const CaptureEnd &end) = 0;
  /// Removes whatever was written: the window was cancelled.
  virtual void discard() = 0;
  /// What the user is told the window produced (a path), "" when nothing.
  virtual std::string description() const = 0;
  /// Writes what the window holds so far as a report of its own and goes
  /// on (a flight recorder); "" with `path` set, or why not.
  virtual std::string dump(const Catalog &, const CaptureEnd &, std::string * /*path*/) {
    return "this capture keeps no flight recorder (start it with --flight-recorder SIZE)";
  }
};

/// What a window is opened with.
struct WindowFacts {
  uint32_t index = 1;      ///< 1, 2, ... in the order windows start
  uint64_t start_ns = 0;   ///< session clock
  std::string output_name; ///< asked for by `start NAME`; "" for the default
};

/// The outcome of a window command: "ok"-worthy text or an error.
struct WindowResult {
  bool ok = false;
  std::string text;
};

class CaptureWindows final : public EventSink {
public:
  /// Opens a window's output; nullptr with `error` set when it cannot.
  using OpenOutput =
      std::function<std::unique_ptr<WindowOutput>(const WindowFacts &, std::string *error)>;
  /// Reports a finished window: its index and finish()'s outcome.
  using Finished =
      std::function<void(uint32_t index, const std::string &description, const std::string &error)>;

  /// `shared` sinks (exporters, the summary) see every kept event of every
  /// window, and are not finished here.
  CaptureWindows(const Catalog &catalog, std::vector<EventSink *> shared, OpenOutput open,
                 Finished finished,
                 std::chrono::milliseconds grace = std::chrono::milliseconds(300));
  ~CaptureWindows() override;

  WindowResult start(uint64_t at_ns, const std::string &output_name = "");
  /// The current window keeps events from `at_ns` on, when that is earlier
  /// than it began and after every stopped window's end: a step-aligned
  /// window opens at the first boundary heard, and a process heard later
  /// may have begun the step before it. Its report's header keeps the start
  /// it was opened with.
  void start_earlier(uint64_t at_ns);
  WindowResult stop(uint64_t at_ns);
  WindowResult suspend(uint64_t at_ns);
  WindowResult resume(uint64_t at_ns);
  WindowResult cancel(uint64_t at_ns);
  /// Has the current window write what it holds (WindowOutput::dump) to `path`.
  WindowResult dump(const CaptureEnd &end, std::string *path);

  /// Finishes stopped windows whose grace period has passed; `end` is what
  /// their reports record (drops so far, no exit status yet).
  void finish_due(std::chrono::steady_clock::time_point now, const CaptureEnd &end);

  bool collecting() const { return current_ != nullptr; }
  bool suspended() const { return current_ && current_->suspended_since != kOpen; }
  /// What the current window writes (its report's path), "" without one.
  std::string current_output() const {
    return current_ ? current_->output->description() : std::string();
  }
  /// Whether stopped windows wait for their grace period to end.
  bool finishing() const { return !closing_.empty(); }
  /// Whether the grace period of every stopped window has passed by `now`.
  bool grace_over(std::chrono::steady_clock::time_point now) const;
  /// Windows started so far (cancelled ones included).
  uint32_t started() const { return next_index_ - 1; }
  /// Windows whose output was finished.
  uint32_t completed() const { return completed_; }

  void catalog_grew(const Catalog &catalog, const CatalogMark &seen,
                    const CatalogMark &now) override;
  void consume(const prof_event *events, size_t count) override;
  /// The capture ended: the current window stops at `end.end_ns` and every
  /// window is finished with `end`.
  void finish(const Catalog &catalog, const CaptureEnd &end) override;

private:
  static constexpr uint64_t kOpen = ~0ull;
  struct Window {
    WindowFacts facts;
    uint64_t end_ns = kOpen;
    uint64_t suspended_since = kOpen;
    std::vector<std::pair<uint64_t, uint64_t>> cuts; ///< [from, to) left out
    std::unique_ptr<WindowOutput> output;
    std::chrono::steady_clock::time_point due{};
    uint64_t events = 0;
    bool keeps(uint64_t ts) const;
  };

  Window *window_of(uint64_t ts);
  void finish_window(Window &window, const CaptureEnd &end);
  void deliver(Window *window, const prof_event *events, size_t count);

  const Catalog &catalog_;
  std::vector<EventSink *> shared_;
  OpenOutput open_;
  Finished finished_;
  std::chrono::milliseconds grace_;
  CatalogMark mark_;
  std::unique_ptr<Window> current_;
  std::vector<std::unique_ptr<Window>> closing_;
  uint32_t next_index_ = 1;
  uint32_t completed_ = 0;
};

} // namespace prof::core
