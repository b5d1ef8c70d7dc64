// ClockConverter: packet timestamps to the trace clock, as Perfetto's trace
// processor converts them (clock_snapshot.proto, trace_packet_defaults.proto):
// - A ClockSnapshot states several clocks' values at one moment. A
//   timestamp on clock A converts to clock B through the snapshot of both
//   whose value of A is the latest at or before it (else the first), and to
//   the trace clock through a chain of such pairs (the shortest).
// - Clock ids 64..127 are scoped to the packet sequence whose snapshot
//   declares them; a clock declared is_incremental makes each packet's
//   timestamp a delta from the previous one on that clock (the first after
//   a snapshot, from the snapshot's value); unit_multiplier_ns scales a
//   clock's values to nanoseconds.
// - The trace clock is BOOTTIME unless a snapshot names another
//   (primary_trace_clock) before the first conversion.
// Snapshots apply from where they are in the file on, as they do for the
// trace processor (the first 32 clocks of each). A timestamp on a clock that
// no snapshot names at all is taken as the trace clock's (a synthetic trace
// that never wrote one).
#ifndef PROF_PLUGINS_PERFETTO_READ_CLOCK_CONVERTER_HPP
#define PROF_PLUGINS_PERFETTO_READ_CLOCK_CONVERTER_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::perfetto {

/// One clock of a ClockSnapshot as written.
struct SnapshotClock {
  uint32_t id = 0;
  uint64_t timestamp = 0; ///< in the clock's units
  bool incremental = false;
  uint64_t unit_multiplier_ns = 0; ///< 0: not given (1 ns)
};

class ClockConverter {
public:
  /// Clocks 64..127 of `sequence` are its own; others are the trace's.
  static uint64_t key(uint32_t sequence, uint32_t clock_id) {
    return clock_id >= 64 && clock_id <= 127 ? (uint64_t{sequence} << 32) | clock_id : clock_id;
  }

  /// Records a snapshot of `sequence`; `primary` is its primary_trace_clock (0: none).
  void add_snapshot(uint32_t sequence, const std::vector<SnapshotClock> &clocks, uint32_t primary);

  /// The trace-clock time of a packet of `sequence` with `timestamp` on
  /// clock `clock_id` (advancing an incremental clock when `has_timestamp`);
  /// nullopt when no snapshot relates that clock to the trace clock or the
  /// result does not fit. *assumed is set when the clock was taken as the
  /// trace clock (no snapshot names it).
  std::optional<int64_t> to_trace(uint32_t sequence, uint32_t clock_id, uint64_t timestamp,
                                  bool has_timestamp, bool *assumed = nullptr);

  uint32_t trace_clock() const { return trace_clock_; }
  /// CLOCK_REALTIME and the trace clock at one moment (nanoseconds), from the
  /// first snapshot that has both.
  std::optional<std::pair<int64_t, int64_t>> realtime() const { return realtime_; }

private:
  struct Clock {
    uint64_t multiplier = 1;
    bool incremental = false;
    uint64_t value = 0; ///< an incremental clock's current value, in its units
  };
  /// (value on A, value on B) of the snapshots that have both, by A's value.
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;

  std::optional<int64_t> convert(uint64_t from, int64_t ns);
  const std::vector<uint64_t> *path_to_trace(uint64_t from);

  uint32_t trace_clock_ = 6;
  bool converted_ = false; ///< the trace clock is fixed once a timestamp was converted
  std::unordered_map<uint64_t, Clock> clocks_;
  std::map<std::pair<uint64_t, uint64_t>, Pairs> pairs_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> neighbours_;
  std::unordered_map<uint64_t, std::optional<std::vector<uint64_t>>>
      paths_; ///< cleared when an edge is new
  std::optional<std::pair<int64_t, int64_t>> realtime_;
};

} // namespace prof::perfetto

#endif
