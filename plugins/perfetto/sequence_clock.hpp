// SequenceClock: the exporter's packet timestamps as deltas on an incremental
// clock of its packet sequence, the way Perfetto's SDK writes them.
//
// Perfetto's rules (clock_snapshot.proto, trace_packet_defaults.proto, and
// trace_processor's ProtoTraceReader and ClockSynchronizer):
// - Clock ids 64..127 are scoped to the packet sequence that declares them in
//   a ClockSnapshot. A clock declared with is_incremental makes each packet's
//   timestamp a delta from the previous packet's on that clock, in file order;
//   the first packet after a snapshot is a delta from the snapshot's value.
// - TracePacketDefaults.timestamp_clock_id, sent with
//   SEQ_INCREMENTAL_STATE_CLEARED in the sequence's first packet, is the clock
//   of every later packet of the sequence that names none.
// - A snapshot pairs the clock with BOOTTIME, the trace clock when a trace
//   names no other; trace_processor converts through it. It refuses a
//   snapshot in which the trace clock goes back, and stops converting from a
//   clock whose snapshots go back.
//
// Deltas are written unsigned, so never negative: a packet earlier than the
// one before it (batches are not ordered against each other) restarts the
// clock with another snapshot and carries its whole timestamp. Every snapshot
// states the same point, 0 on both clocks, so no clock ever goes back. prof's
// session nanoseconds (CLOCK_MONOTONIC) thus land on the trace clock
// unchanged, as they did when packets carried them absolute.
#ifndef PROF_PLUGINS_PERFETTO_SEQUENCE_CLOCK_HPP
#define PROF_PLUGINS_PERFETTO_SEQUENCE_CLOCK_HPP

#include "perfetto_fields.hpp"
#include "proto_writer.hpp"

#include <cstdint>

namespace prof::perfetto {

class SequenceClock {
public:
  /// The incremental clock's id on the sequence.
  static constexpr uint32_t kId = field::clock::kFirstSequenceClock;

  /// Writes the first packet of sequence `sequence_id`: clears its
  /// incremental state, makes this clock the default one and declares it,
  /// starting at 0; a nonzero `default_track_uuid` becomes the track of the
  /// sequence's events that name none (TrackEventDefaults.track_uuid). A
  /// nonzero `realtime_at_zero` (CLOCK_REALTIME when the session clock was
  /// 0) joins the snapshot as BUILTIN_CLOCK_REALTIME: the trace's wall clock.
  void write_first_packet(ProtoWriter &out, uint32_t sequence_id, uint64_t default_track_uuid,
                          uint64_t realtime_at_zero = 0);

  /// The timestamp to write on the next packet, which happens at `ts`. When
  /// `ts` is before the previous packet's time, first writes a packet that
  /// restarts the clock.
  uint64_t delta(uint64_t ts, ProtoWriter &out) {
    if (ts < now_) [[unlikely]]
      restart(out);
    const uint64_t d = ts - now_;
    now_ = ts;
    return d;
  }

  /// How many times the clock was restarted.
  uint64_t restarts() const { return restarts_; }

private:
  void restart(ProtoWriter &out);

  uint32_t sequence_id_ = 0;
  uint64_t now_ = 0; ///< time of the last packet, as the reader sums it
  uint64_t restarts_ = 0;
};

} // namespace prof::perfetto

#endif
