// The drain thread: empties the event sources (in-process rings, shared rings
// of profiled processes) periodically, converts device and TSC timestamps to
// the session clock, and feeds the sinks.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/events/event_source.hpp"
#include "core/events/event_sink.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace prof::core {

/// What runs on the drain thread before every drain (and once after the
/// last): where commands that must be ordered against drained events
/// (collection windows) take effect.
class DrainHook {
public:
  virtual ~DrainHook() = default;
  virtual void before_drain() = 0;
  /// Before a drained batch goes to the sinks: what was published before the
  /// batch's events (an application's capture request) is visible now, and
  /// takes effect before them.
  virtual void before_deliver() {}
};

class EventPump {
public:
  /// `tick` is how often rings past the watermark are emptied; every
  /// `full_every` ticks all rings are.
  EventPump(EventSource &source, Catalog &catalog, std::vector<EventSink *> sinks,
            std::chrono::microseconds tick = std::chrono::milliseconds(1),
            unsigned full_every = 16);
  ~EventPump();

  /// Drains `source` too; call before start().
  void add_source(EventSource &source) { sources_.push_back(&source); }
  /// `hook` runs before every drain; call before start().
  void set_before_drain(DrainHook &hook) { before_drain_ = &hook; }
  void start();
  /// Stops the thread and drains what is left.
  void stop();
  /// Drains once on the calling thread (only when the thread is not running).
  size_t drain_now(bool all);
  uint64_t events() const { return events_.load(std::memory_order_relaxed); }
  /// The capture so far: now on the session clock, the events delivered,
  /// and the drops of every source (prof's rings and the application's).
  CaptureEnd totals() const;

private:
  void run();
  void deliver(prof_event *events, size_t count);
  void publish_catalog();

  std::vector<EventSource *> sources_;
  DrainHook *before_drain_ = nullptr;
  Catalog &catalog_;
  std::vector<EventSink *> sinks_;
  std::chrono::microseconds tick_;
  unsigned full_every_;
  CatalogMark seen_;
  std::vector<prof_clock_id> track_clocks_; // clock of each track id
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<uint64_t> events_{0};
};

} // namespace prof::core
