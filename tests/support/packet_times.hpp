// PacketTimes: every packet's timestamp on the trace clock, resolved from a
// decoded trace the way trace_processor resolves it, so tests compare event
// times with the input instead of with the bytes the exporter chose.
//
// The rules followed (proto comments of clock_snapshot.proto and
// trace_packet_defaults.proto; trace_processor's ProtoTraceReader and
// ClockSynchronizer):
// - packets are read in file order; sequence state is per
//   trusted_packet_sequence_id;
// - a packet's clock is its timestamp_clock_id, else its sequence's
//   TracePacketDefaults.timestamp_clock_id, else the trace clock (BOOTTIME);
// - ids 64..127 name clocks of the packet's own sequence, declared by a
//   ClockSnapshot on it; an incremental clock adds each timestamp to a running
//   sum that a snapshot resets to the snapshot's value;
// - a snapshot maps a clock onto BOOTTIME by the offset between the two
//   values; a snapshot in which a clock goes back is an error
//   (trace_processor refuses it for the trace clock and stops converting
//   from any other clock that does it), and so is an offset that changes
//   (this exporter's clocks never drift).
// Also counted: packets that rely on incremental state (interned ids, a
// sequence clock) on a sequence whose state was never cleared (a reader
// would skip them as state it lost, flagged or not), packets flagged
// SEQ_NEEDS_INCREMENTAL_STATE (2 bytes that change nothing in a whole file),
// and deltas that are negative numbers written as uint64.
#ifndef PROF_TESTS_SUPPORT_PACKET_TIMES_HPP
#define PROF_TESTS_SUPPORT_PACKET_TIMES_HPP

#include "tests/support/decoded_trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prof::testing {

struct PacketTimes {
  static constexpr uint64_t kBoottime = 6;
  static constexpr uint32_t kSeqIncrementalStateCleared = 1;
  static constexpr uint32_t kSeqNeedsIncrementalState = 2;

  /// Resolved time of each packet that has a timestamp, by packet index.
  std::map<size_t, uint64_t> time;
  int unresolved = 0;         ///< timestamps on a clock never declared
  int clock_went_back = 0;    ///< snapshots that a reader would refuse or distrust
  int offset_changed = 0;     ///< snapshots that move a clock against BOOTTIME
  int negative_deltas = 0;    ///< deltas at or above 2^63
  int before_cleared = 0;     ///< packets using incremental state before it was cleared
  int needs_flags = 0;        ///< packets flagged SEQ_NEEDS_INCREMENTAL_STATE
  int snapshots = 0;          ///< ClockSnapshot packets
  int restarts = 0;           ///< snapshots after a sequence's first packet
  std::map<uint32_t, int> packets_per_sequence;

  explicit PacketTimes(const TextNode &trace) {
    const auto packets = trace.all("packet");
    for (size_t i = 0; i < packets.size(); ++i)
      visit(i, *packets[i]);
  }

private:
  struct Clock {
    bool incremental = false;
    uint64_t multiplier = 1;
    uint64_t sum = 0;   ///< running value of an incremental clock, ns
    uint64_t last = 0;  ///< value at the last snapshot, ns
    int64_t offset = 0; ///< BOOTTIME minus this clock
    bool snapshotted = false;
  };
  struct Sequence {
    uint64_t default_clock = 0;
    bool cleared = false;             ///< a packet said SEQ_INCREMENTAL_STATE_CLEARED
    std::map<uint64_t, Clock> clocks; ///< sequence-scoped clocks by id
  };

  static bool sequence_scoped(uint64_t id) { return id >= 64 && id < 128; }

  void snapshot(Sequence &sequence, const TextNode &s) {
    ++snapshots;
    std::optional<uint64_t> boottime;
    for (const TextNode *c : s.all("clocks"))
      if (std::stoull(c->get("clock_id")) == kBoottime) boottime = std::stoull(c->get("timestamp"));
    for (const TextNode *c : s.all("clocks")) {
      const uint64_t id = std::stoull(c->get("clock_id"));
      if (!sequence_scoped(id)) continue;
      Clock &clock = sequence.clocks[id];
      const uint64_t multiplier =
          c->has("unit_multiplier_ns") ? std::stoull(c->get("unit_multiplier_ns")) : 1;
      const uint64_t value = std::stoull(c->get("timestamp")) * multiplier;
      if (clock.snapshotted && value < clock.last) ++clock_went_back;
      const int64_t offset = boottime ? static_cast<int64_t>(*boottime - value) : clock.offset;
      if (clock.snapshotted && offset != clock.offset) ++offset_changed;
      clock.incremental = c->get("is_incremental") == "true";
      clock.multiplier = multiplier;
      clock.sum = clock.last = value;
      clock.offset = offset;
      clock.snapshotted = true;
    }
    if (boottime) {
      if (boottime_seen_ && *boottime < last_boottime_) ++clock_went_back;
      boottime_seen_ = true;
      last_boottime_ = *boottime;
    }
  }

  void visit(size_t index, const TextNode &p) {
    const uint32_t id = p.has("trusted_packet_sequence_id")
                            ? static_cast<uint32_t>(std::stoul(p.get("trusted_packet_sequence_id")))
                            : 0;
    ++packets_per_sequence[id];
    Sequence &sequence = sequences_[id];
    const uint32_t flags =
        p.has("sequence_flags") ? static_cast<uint32_t>(std::stoul(p.get("sequence_flags"))) : 0;
    if (flags & kSeqIncrementalStateCleared) {
      sequence.default_clock = 0;
      sequence.cleared = true;
    }
    if (const TextNode *d = p.first("trace_packet_defaults"))
      if (d->has("timestamp_clock_id"))
        sequence.default_clock = std::stoull(d->get("timestamp_clock_id"));
    if (const TextNode *s = p.first("clock_snapshot")) {
      snapshot(sequence, *s);
      restarts += !(flags & kSeqIncrementalStateCleared);
    }

    bool needs_state = false;
    if (const TextNode *e = p.first("track_event"))
      needs_state = e->has("name_iid") || e->has("category_iids");
    if (const TextNode *s = p.first("perf_sample")) needs_state = s->has("callstack_iid");
    if (p.has("timestamp")) {
      const uint64_t value = std::stoull(p.get("timestamp"));
      const uint64_t clock_id = p.has("timestamp_clock_id")
                                    ? std::stoull(p.get("timestamp_clock_id"))
                                    : sequence.default_clock;
      if (clock_id == 0 || clock_id == kBoottime) {
        time[index] = value;
      } else if (auto found = sequence.clocks.find(clock_id);
                 sequence_scoped(clock_id) && found != sequence.clocks.end()) {
        Clock &clock = found->second;
        needs_state = true;
        if (clock.incremental) {
          if (value >= (uint64_t{1} << 63)) ++negative_deltas;
          clock.sum += value * clock.multiplier;
          time[index] = clock.sum + static_cast<uint64_t>(clock.offset);
        } else {
          time[index] = value * clock.multiplier + static_cast<uint64_t>(clock.offset);
        }
      } else {
        ++unresolved;
      }
    }
    if (needs_state && !sequence.cleared) ++before_cleared;
    if (flags & kSeqNeedsIncrementalState) ++needs_flags;
  }

  std::map<uint32_t, Sequence> sequences_;
  bool boottime_seen_ = false;
  uint64_t last_boottime_ = 0;
};

} // namespace prof::testing

#endif
