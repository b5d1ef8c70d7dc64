// The flight recorder (--flight-recorder SIZE|SECONDS): a window that keeps
// only the latest events in prof's memory, within a bound of bytes or of
// time, and writes them as a report only when asked (prof dump, a hang) or
// when the application ends abnormally (a signal, a non-zero exit). The
// unfinished slices the agents emit for a dump (PROF_SLICE_UNFINISHED) are
// kept apart, outside the bound, and written with that dump only. With an
// ArgsSweeper, the argument sets stay within what the kept events use.
#pragma once

#include "core/capture/args_sweeper.hpp"
#include "core/capture/capture_windows.hpp"
#include "core/report/report_model.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prof::core {

/// How much a flight recorder keeps: the latest `bytes` of events, or
/// those of the latest `ns` nanoseconds (one of the two is set).
struct FlightBound {
  uint64_t bytes = 0;
  uint64_t ns = 0;
  bool on() const { return bytes != 0 || ns != 0; }
};

/// The latest events within a bound: one circular array that grows to
/// what the bound holds and is then reused in place, so a recorder that
/// runs for hours allocates nothing once full (a deque's blocks came and
/// went with every event).
class EventRing {
public:
  explicit EventRing(FlightBound bound);
  void add(const prof_event *events, size_t count);
  size_t size() const { return size_; }
  /// The kept events, oldest (in arrival) first.
  std::vector<prof_event> oldest_first() const;
  template <class Visit> void for_each(Visit visit) const {
    for (size_t i = 0; i < size_; ++i)
      visit(slots_[(head_ + i) % slots_.size()]);
  }
  /// Bytes the kept events take.
  uint64_t bytes() const { return size_ * sizeof(prof_event); }
  /// Events let go to stay within the bound.
  uint64_t forgotten() const { return forgotten_; }

private:
  void push(const prof_event &event);
  void drop_oldest();

  FlightBound bound_;
  size_t most_ = 0; ///< the byte bound in events; 0: bounded by time
  std::vector<prof_event> slots_;
  size_t head_ = 0, size_ = 0;
  uint64_t newest_ns_ = 0;
  uint64_t forgotten_ = 0;
};

/// A flight recorder window's output. `open_report` opens dump N's report
/// (a regular window output) starting at the oldest kept event. With
/// `sweeper`, it is one of the sweeper's keepers while it lives.
class FlightRecorderOutput final : public WindowOutput, public KeptEvents {
public:
  using OpenReport = std::function<std::unique_ptr<WindowOutput>(uint32_t dump, uint64_t start_ns,
                                                                 std::string *error)>;
  FlightRecorderOutput(FlightBound bound, OpenReport open_report, ArgsSweeper *sweeper = nullptr);
  ~FlightRecorderOutput() override;
  FlightRecorderOutput(const FlightRecorderOutput &) = delete;
  FlightRecorderOutput &operator=(const FlightRecorderOutput &) = delete;

  EventSink &sink() override { return ring_sink_; }
  /// Writes a report of what it holds only when the application ended
  /// abnormally; "" or the error.
  std::string finish(const Catalog &catalog, const CaptureEnd &end) override;
  void discard() override {}
  std::string description() const override { return written_; }
  std::string dump(const Catalog &catalog, const CaptureEnd &end, std::string *path) override;
  void for_each_kept(const std::function<void(const prof_event &)> &visit) const override;

private:
  class RingSink final : public EventSink {
  public:
    RingSink(FlightBound bound, ArgsSweeper *sweeper) : ring(bound), sweeper(sweeper) {}
    void consume(const prof_event *events, size_t count) override;
    EventRing ring;
    std::vector<prof_event> unfinished; ///< for the next dump
    ArgsSweeper *sweeper;
  };
  RingSink ring_sink_;
  OpenReport open_report_;
  uint32_t dumps_ = 0;
  std::string written_; ///< the latest dump's report
};

} // namespace prof::core
