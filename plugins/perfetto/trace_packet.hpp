// Opening and closing one TracePacket. Every packet carries
// trusted_packet_sequence_id, because interned data (names, categories, call
// stacks), defaults and sequence clocks are scoped to a sequence.
#ifndef PROF_PLUGINS_PERFETTO_TRACE_PACKET_HPP
#define PROF_PLUGINS_PERFETTO_TRACE_PACKET_HPP

#include "perfetto_fields.hpp"
#include "proto_writer.hpp"

namespace prof::perfetto {

/// The sequence of track descriptors, events on no track and CPU samples;
/// each track's events have their own (packet_sequence.hpp).
inline constexpr uint32_t kMainSequenceId = 1;

/// Opens Trace.packet with the sequence id and, when nonzero, sequence_flags.
inline void begin_packet(ProtoWriter &out, uint32_t sequence_id, uint32_t sequence_flags = 0) {
  out.begin_nested(field::trace::kPacket);
  out.field_varint(field::packet::kTrustedPacketSequenceId, sequence_id);
  if (sequence_flags != 0) out.field_varint(field::packet::kSequenceFlags, sequence_flags);
}

/// Same, with a timestamp (on the sequence's default clock).
inline void begin_timed_packet(ProtoWriter &out, uint32_t sequence_id, uint64_t timestamp,
                               uint32_t sequence_flags = 0) {
  out.begin_nested(field::trace::kPacket);
  out.field_varint(field::packet::kTimestamp, timestamp);
  out.field_varint(field::packet::kTrustedPacketSequenceId, sequence_id);
  if (sequence_flags != 0) out.field_varint(field::packet::kSequenceFlags, sequence_flags);
}

inline void end_packet(ProtoWriter &out) { out.end_nested(); }

} // namespace prof::perfetto

#endif
