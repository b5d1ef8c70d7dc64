// TrackEventPacket: the exporter's hot path, a TracePacket holding one
// TrackEvent (SLICE_BEGIN, SLICE_END, INSTANT), written with one bounds check
// instead of one per field. The bytes are those begin_packet() and
// ProtoWriter's field calls would write: the same fields in the same order.
#ifndef PROF_PLUGINS_PERFETTO_TRACK_EVENT_PACKET_HPP
#define PROF_PLUGINS_PERFETTO_TRACK_EVENT_PACKET_HPP

#include "perfetto_fields.hpp"
#include "proto_writer.hpp"
#include "trace_packet.hpp"

namespace prof::perfetto {

/// Fields of a TrackEvent packet; zero leaves a field out (type excepted).
struct TrackEventPacket {
  uint32_t sequence_id = 0;
  uint64_t timestamp = 0; ///< on the sequence's default clock
  uint32_t sequence_flags = 0;
  uint32_t type = 0;
  uint64_t track_uuid = 0; ///< 0: the sequence's default track
  uint64_t name_iid = 0;
  uint64_t category_iid = 0;
  uint64_t kind_iid = 0; ///< a second category: the well-known one
  uint64_t flow_id = 0;
  bool terminating_flow = false; ///< flow_id goes to terminating_flow_ids
};

/// Flow ids below this take fewer bytes as varints (flow_ids_old,
/// terminating_flow_ids_old) than as fixed64 (flow_ids, terminating_flow_ids):
/// a correlation id of a few bytes takes 3 or 4 instead of 8. trace_processor
/// reads either field of an event the same way (the fixed64 one when both
/// are there); the varint ones are marked deprecated in the proto but kept
/// for old traces.
inline constexpr uint64_t kShortFlowIds = uint64_t{1} << 49;

/// Most bytes put_track_event() writes: every varint at 10 bytes.
inline constexpr size_t kMaxTrackEvent = 2 + 6 + 4 * 11 + 2 + 8;

/// Writes the fields of a TrackEvent at `out` (room for kMaxTrackEvent - 2
/// bytes); returns the end.
[[gnu::always_inline]] inline uint8_t *put_track_event_fields(uint8_t *p,
                                                              const TrackEventPacket &e) {
  namespace f = field::track_event;
  using W = WireType;
  p = put_varint(p, field_tag(f::kType, W::Varint));
  p = put_varint(p, e.type);
  if (e.track_uuid != 0) {
    p = put_varint(p, field_tag(f::kTrackUuid, W::Varint));
    p = put_varint(p, e.track_uuid);
  }
  if (e.name_iid != 0) {
    p = put_varint(p, field_tag(f::kNameIid, W::Varint));
    p = put_varint(p, e.name_iid);
  }
  if (e.category_iid != 0) {
    p = put_varint(p, field_tag(f::kCategoryIids, W::Varint));
    p = put_varint(p, e.category_iid);
  }
  if (e.kind_iid != 0) {
    p = put_varint(p, field_tag(f::kCategoryIids, W::Varint));
    p = put_varint(p, e.kind_iid);
  }
  if (e.flow_id != 0 && e.flow_id < kShortFlowIds) {
    p = put_varint(
        p, field_tag(e.terminating_flow ? f::kTerminatingFlowIdsOld : f::kFlowIdsOld, W::Varint));
    p = put_varint(p, e.flow_id);
  } else if (e.flow_id != 0) {
    p = put_varint(
        p, field_tag(e.terminating_flow ? f::kTerminatingFlowIds : f::kFlowIds, W::Fixed64));
    p = put_fixed64(p, e.flow_id);
  }
  return p;
}

/// Writes TracePacket.track_event (tag, length, body) at `out`, which has
/// room for kMaxTrackEvent bytes; returns the end.
[[gnu::always_inline]] inline uint8_t *put_track_event(uint8_t *out, const TrackEventPacket &e) {
  using W = WireType;
  static_assert(kMaxTrackEvent - 2 < 0x80, "the length must fit one byte");
  uint8_t *p = put_track_event_fields(out + 2, e);
  out[0] = static_cast<uint8_t>(field_tag(field::packet::kTrackEvent, W::LengthDelimited));
  out[1] = static_cast<uint8_t>(p - out - 2);
  return p;
}

/// Writes a whole packet: timestamp, sequence id, flags, the TrackEvent.
[[gnu::always_inline]] inline void write_packet(ProtoWriter &out, const TrackEventPacket &e) {
  namespace f = field::packet;
  using W = WireType;
  constexpr size_t kMaxPacket = 11 + 6 + 6 + kMaxTrackEvent; // timestamp, sequence id, flags
  static_assert(kMaxPacket < 0x80, "the length must fit one byte");
  uint8_t *const packet = out.claim(2 + kMaxPacket);
  uint8_t *p = packet + 2; // tag and length of Trace.packet
  p = put_varint(p, field_tag(f::kTimestamp, W::Varint));
  p = put_varint(p, e.timestamp);
  p = put_varint(p, field_tag(f::kTrustedPacketSequenceId, W::Varint));
  p = put_varint(p, e.sequence_id);
  if (e.sequence_flags != 0) {
    p = put_varint(p, field_tag(f::kSequenceFlags, W::Varint));
    p = put_varint(p, e.sequence_flags);
  }
  p = put_track_event(p, e);
  packet[0] = static_cast<uint8_t>(field_tag(field::trace::kPacket, W::LengthDelimited));
  packet[1] = static_cast<uint8_t>(p - packet - 2);
  out.commit(p);
}

} // namespace prof::perfetto

#endif
