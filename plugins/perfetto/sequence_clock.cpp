#include "sequence_clock.hpp"

#include "trace_packet.hpp"

namespace prof::perfetto {

namespace {

namespace f = field;

/// ClockSnapshot: the incremental clock and BOOTTIME, both at 0, and the
/// wall clock at that moment when known (nonzero).
void write_snapshot(ProtoWriter &out, uint64_t realtime_at_zero = 0) {
  out.begin_nested(f::packet::kClockSnapshot);
  out.begin_nested(f::clock_snapshot::kClocks);
  out.field_varint(f::clock::kClockId, SequenceClock::kId);
  out.field_varint(f::clock::kTimestamp, 0);
  out.field_varint(f::clock::kIsIncremental, 1);
  out.field_varint(f::clock::kUnitMultiplierNs, 1);
  out.end_nested();
  out.begin_nested(f::clock_snapshot::kClocks);
  out.field_varint(f::clock::kClockId, f::clock::kBuiltinBoottime);
  out.field_varint(f::clock::kTimestamp, 0);
  out.end_nested();
  if (realtime_at_zero != 0) {
    out.begin_nested(f::clock_snapshot::kClocks);
    out.field_varint(f::clock::kClockId, f::clock::kBuiltinRealtime);
    out.field_varint(f::clock::kTimestamp, realtime_at_zero);
    out.end_nested();
  }
  out.end_nested();
}

} // namespace

void SequenceClock::write_first_packet(ProtoWriter &out, uint32_t sequence_id,
                                       uint64_t default_track_uuid, uint64_t realtime_at_zero) {
  sequence_id_ = sequence_id;
  begin_packet(out, sequence_id_, f::packet::kSeqIncrementalStateCleared);
  out.begin_nested(f::packet::kTracePacketDefaults);
  out.field_varint(f::trace_packet_defaults::kTimestampClockId, kId);
  if (default_track_uuid != 0) {
    out.begin_nested(f::trace_packet_defaults::kTrackEventDefaults);
    out.field_varint(f::track_event_defaults::kTrackUuid, default_track_uuid);
    out.end_nested();
  }
  out.end_nested();
  write_snapshot(out, realtime_at_zero);
  end_packet(out);
  now_ = 0;
}

void SequenceClock::restart(ProtoWriter &out) {
  begin_packet(out, sequence_id_);
  write_snapshot(out);
  end_packet(out);
  now_ = 0;
  ++restarts_;
}

} // namespace prof::perfetto
