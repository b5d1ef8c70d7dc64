#include "read/trace_reader.hpp"

#include "read/packet_reader.hpp"

#include "perfetto_fields.hpp"

#include <string>

namespace prof::perfetto {
namespace {

namespace f = field;

/// What a byte that should open a packet is, for the error.
std::string byte_text(uint8_t c) {
  static const char hex[] = "0123456789abcdef";
  std::string text = std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  if (c >= 0x20 && c < 0x7f) text += std::string(" ('") + static_cast<char>(c) + "')";
  return text;
}

} // namespace

void read_trace(std::string_view data, ReadTrace &trace) {
  if (data.empty())
    throw WireError("expected a TracePacket (Trace.packet, field 1), found an empty file", 0);
  PacketReader reader(trace);
  constexpr uint8_t kPacketTag = field_tag(f::trace::kPacket, WireType::LengthDelimited);
  size_t pos = 0;
  while (pos < data.size()) {
    const size_t start = pos;
    const auto tag = static_cast<uint8_t>(data[pos]);
    if (tag != kPacketTag)
      throw WireError("expected a TracePacket (Trace.packet, field 1, length-delimited: byte "
                      "0x0a), found " +
                          byte_text(tag),
                      start);
    ++pos;
    const size_t length_at = pos;
    uint64_t length = 0;
    const bool whole_length = read_varint(data, pos, length);
    if (whole_length && length <= data.size() - pos) {
      reader.packet(data.substr(pos, static_cast<size_t>(length)), pos);
      pos += static_cast<size_t>(length);
      ++trace.packets;
      continue;
    }
    if (!whole_length && pos < data.size())
      throw WireError("expected the length of a TracePacket (a varint), found more than 64 bits",
                      length_at);
    // The file ends inside this packet.
    const uint64_t found = whole_length ? data.size() - pos : 0;
    if (trace.packets == 0)
      throw WireError(whole_length ? "expected a TracePacket of " + std::to_string(length) +
                                         " bytes, found " + std::to_string(found) +
                                         " before the end of the file"
                                   : "expected the length of a TracePacket, found the end of "
                                     "the file",
                      whole_length ? pos : length_at);
    trace.cut = CutPacket{length_at, whole_length ? length : 0, found, trace.packets};
    break;
  }
}

void PacketReader::packet(std::string_view bytes, uint64_t offset) {
  namespace p = f::packet;
  ProtoReader reader(bytes, offset);
  Packet packet;
  std::optional<WireField> event, descriptor, snapshot, interned, defaults, sample;
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
    case p::kTimestamp:
      packet.timestamp = varint_of(field, "TracePacket.timestamp");
      break;
    case p::kTimestampClockId:
      packet.clock_id = static_cast<uint32_t>(varint_of(field, "TracePacket.timestamp_clock_id"));
      break;
    case p::kTrustedPacketSequenceId:
      packet.sequence =
          static_cast<uint32_t>(varint_of(field, "TracePacket.trusted_packet_sequence_id"));
      break;
    case p::kSequenceFlags:
      packet.flags = static_cast<uint32_t>(varint_of(field, "TracePacket.sequence_flags"));
      break;
    case p::kIncrementalStateCleared:
      packet.cleared = varint_of(field, "TracePacket.incremental_state_cleared") != 0;
      break;
    case p::kPreviousPacketDropped:
      packet.dropped = varint_of(field, "TracePacket.previous_packet_dropped") != 0;
      break;
    case p::kTrackEvent:
      event = field;
      break;
    case p::kTrackDescriptor:
      descriptor = field;
      break;
    case p::kClockSnapshot:
      snapshot = field;
      break;
    case p::kInternedData:
      interned = field;
      break;
    case p::kTracePacketDefaults:
      defaults = field;
      break;
    case p::kPerfSample:
      sample = field;
      break;
    case p::kCompressedPackets:
      ++trace_.left_out.compressed_packets;
      break;
    default:
      break; // a packet of another data source
    }
  }

  SequenceState &seq = sequences_[packet.sequence];
  if (packet.dropped) seq.valid = false;
  if (packet.cleared || (packet.flags & p::kSeqIncrementalStateCleared) != 0) seq.clear();
  if ((packet.flags & p::kSeqNeedsIncrementalState) != 0 && !seq.valid) {
    ++trace_.left_out.lost_state_packets;
    return;
  }
  if (defaults) this->defaults(message_of(*defaults, "TracePacket.trace_packet_defaults"), seq);
  if (interned) this->interned(message_of(*interned, "TracePacket.interned_data"), seq);
  if (snapshot)
    this->snapshot(message_of(*snapshot, "TracePacket.clock_snapshot"), packet.sequence);
  // Every timed packet moves its sequence's incremental clock, whatever it holds.
  std::optional<int64_t> ts;
  if (packet.timestamp || event || sample) ts = packet_time(packet, seq);
  if (descriptor) this->descriptor(message_of(*descriptor, "TracePacket.track_descriptor"));
  if (event) track_event(message_of(*event, "TracePacket.track_event"), packet, seq, ts);
  if (sample) perf_sample(message_of(*sample, "TracePacket.perf_sample"), seq, ts);
}

std::optional<int64_t> PacketReader::packet_time(const Packet &packet, const SequenceState &seq) {
  const uint32_t clock = packet.clock_id ? *packet.clock_id
                         : seq.clock_id  ? *seq.clock_id
                                         : clocks_.trace_clock();
  bool assumed = false;
  const std::optional<int64_t> ts = clocks_.to_trace(
      packet.sequence, clock, packet.timestamp.value_or(0), packet.timestamp.has_value(), &assumed);
  if (assumed) ++trace_.left_out.assumed_clocks;
  return ts;
}

void PacketReader::defaults(ProtoReader reader, SequenceState &seq) {
  // New defaults replace the old ones whole.
  seq.clock_id.reset();
  seq.track_uuid.reset();
  seq.extra_counter_tracks.clear();
  seq.extra_double_counter_tracks.clear();
  WireField field;
  while (reader.next(field)) {
    if (field.number == f::trace_packet_defaults::kTimestampClockId) {
      seq.clock_id =
          static_cast<uint32_t>(varint_of(field, "TracePacketDefaults.timestamp_clock_id"));
    } else if (field.number == f::trace_packet_defaults::kTrackEventDefaults) {
      ProtoReader track_event = message_of(field, "TracePacketDefaults.track_event_defaults");
      WireField d;
      while (track_event.next(d)) {
        namespace te = f::track_event_defaults;
        if (d.number == te::kTrackUuid)
          seq.track_uuid = varint_of(d, "TrackEventDefaults.track_uuid");
        else if (d.number == te::kExtraCounterTrackUuids)
          for_each_varint(d, "TrackEventDefaults.extra_counter_track_uuids",
                          [&](uint64_t uuid) { seq.extra_counter_tracks.push_back(uuid); });
        else if (d.number == te::kExtraDoubleCounterTrackUuids)
          for_each_varint(d, "TrackEventDefaults.extra_double_counter_track_uuids",
                          [&](uint64_t uuid) { seq.extra_double_counter_tracks.push_back(uuid); });
      }
    }
  }
}

void PacketReader::interned_strings(ProtoReader reader, SequenceState::Strings &table,
                                    const char *what) {
  uint64_t iid = 0;
  std::string_view text;
  WireField field;
  while (reader.next(field)) {
    if (field.number == f::interned_entry::kIid)
      iid = varint_of(field, what);
    else if (field.number == f::interned_entry::kName)
      text = text_of(field, what);
  }
  if (iid != 0) table[iid] = trace_.strings.intern(text);
}

void PacketReader::interned(ProtoReader reader, SequenceState &seq) {
  namespace in = f::interned_data;
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
    case in::kEventNames:
      interned_strings(message_of(field, "InternedData.event_names"), seq.event_names, "EventName");
      break;
    case in::kEventCategories:
      interned_strings(message_of(field, "InternedData.event_categories"), seq.event_categories,
                       "EventCategory");
      break;
    case in::kDebugAnnotationNames:
      interned_strings(message_of(field, "InternedData.debug_annotation_names"),
                       seq.annotation_names, "DebugAnnotationName");
      break;
    case in::kDebugAnnotationStringValues:
      interned_strings(message_of(field, "InternedData.debug_annotation_string_values"),
                       seq.annotation_values, "InternedString");
      break;
    case in::kFunctionNames:
      interned_strings(message_of(field, "InternedData.function_names"), seq.function_names,
                       "InternedString");
      break;
    case in::kMappingPaths:
      interned_strings(message_of(field, "InternedData.mapping_paths"), seq.mapping_paths,
                       "InternedString");
      break;
    case in::kFrames: {
      ProtoReader frame = message_of(field, "InternedData.frames");
      uint64_t iid = 0;
      InternedFrame entry;
      WireField e;
      while (frame.next(e)) {
        if (e.number == f::frame::kIid)
          iid = varint_of(e, "Frame.iid");
        else if (e.number == f::frame::kFunctionNameId)
          entry.function_name = varint_of(e, "Frame.function_name_id");
        else if (e.number == f::frame::kMappingId)
          entry.mapping = varint_of(e, "Frame.mapping_id");
        else if (e.number == f::frame::kRelPc)
          entry.rel_pc = varint_of(e, "Frame.rel_pc");
      }
      if (iid != 0) seq.frames[iid] = entry;
      break;
    }
    case in::kCallstacks: {
      ProtoReader stack = message_of(field, "InternedData.callstacks");
      uint64_t iid = 0;
      std::vector<uint64_t> frames;
      WireField e;
      while (stack.next(e)) {
        if (e.number == f::callstack::kIid)
          iid = varint_of(e, "Callstack.iid");
        else if (e.number == f::callstack::kFrameIds)
          for_each_varint(e, "Callstack.frame_ids", [&](uint64_t id) { frames.push_back(id); });
      }
      if (iid != 0) {
        seq.callstacks[iid] = std::move(frames);
        seq.stack_ids.erase(iid);
      }
      break;
    }
    case in::kMappings: {
      ProtoReader mapping = message_of(field, "InternedData.mappings");
      uint64_t iid = 0;
      std::vector<uint64_t> paths;
      WireField e;
      while (mapping.next(e)) {
        if (e.number == f::mapping::kIid)
          iid = varint_of(e, "Mapping.iid");
        else if (e.number == f::mapping::kPathStringIds)
          for_each_varint(e, "Mapping.path_string_ids", [&](uint64_t id) { paths.push_back(id); });
      }
      if (iid != 0) seq.mappings[iid] = std::move(paths);
      break;
    }
    default:
      break;
    }
  }
}

void PacketReader::snapshot(ProtoReader reader, uint32_t sequence) {
  std::vector<SnapshotClock> clocks;
  uint32_t primary = 0;
  WireField field;
  while (reader.next(field)) {
    if (field.number == f::clock_snapshot::kPrimaryTraceClock) {
      primary = static_cast<uint32_t>(varint_of(field, "ClockSnapshot.primary_trace_clock"));
    } else if (field.number == f::clock_snapshot::kClocks) {
      ProtoReader clock = message_of(field, "ClockSnapshot.clocks");
      SnapshotClock c;
      WireField e;
      while (clock.next(e)) {
        namespace k = f::clock;
        if (e.number == k::kClockId)
          c.id = static_cast<uint32_t>(varint_of(e, "Clock.clock_id"));
        else if (e.number == k::kTimestamp)
          c.timestamp = varint_of(e, "Clock.timestamp");
        else if (e.number == k::kIsIncremental)
          c.incremental = varint_of(e, "Clock.is_incremental") != 0;
        else if (e.number == k::kUnitMultiplierNs)
          c.unit_multiplier_ns = varint_of(e, "Clock.unit_multiplier_ns");
      }
      if (c.id != 0) clocks.push_back(c);
    }
  }
  clocks_.add_snapshot(sequence, clocks, primary);
  trace_.trace_clock = clocks_.trace_clock();
  if (!trace_.realtime) trace_.realtime = clocks_.realtime();
}

void PacketReader::descriptor(ProtoReader reader) {
  namespace td = f::track_descriptor;
  // The fields of this descriptor, applied over an earlier one of its uuid.
  TrackDescription d;
  bool has_uuid = false, has_parent = false, has_name = false;
  std::vector<std::string> cmdline;
  bool has_cmdline = false;
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
    case td::kUuid:
      d.uuid = varint_of(field, "TrackDescriptor.uuid");
      has_uuid = true;
      break;
    case td::kParentUuid:
      d.parent_uuid = varint_of(field, "TrackDescriptor.parent_uuid");
      has_parent = true;
      break;
    case td::kName:
    case td::kStaticName:
      d.name = text_of(field, "TrackDescriptor.name");
      has_name = true;
      break;
    case td::kProcess: {
      ProtoReader process = message_of(field, "TrackDescriptor.process");
      d.type = TrackType::Process;
      WireField e;
      while (process.next(e)) {
        namespace pd = f::process_descriptor;
        if (e.number == pd::kPid) {
          expect_type(e, WireType::Varint, "ProcessDescriptor.pid");
          d.pid = e.as_int32();
        } else if (e.number == pd::kCmdline) {
          cmdline.emplace_back(text_of(e, "ProcessDescriptor.cmdline"));
          has_cmdline = true;
        } else if (e.number == pd::kProcessName) {
          d.process_name = text_of(e, "ProcessDescriptor.process_name");
        }
      }
      break;
    }
    case td::kThread: {
      ProtoReader thread = message_of(field, "TrackDescriptor.thread");
      d.type = TrackType::Thread;
      WireField e;
      while (thread.next(e)) {
        namespace th = f::thread_descriptor;
        if (e.number == th::kPid) {
          expect_type(e, WireType::Varint, "ThreadDescriptor.pid");
          d.pid = e.as_int32();
        } else if (e.number == th::kTid) {
          expect_type(e, WireType::Varint, "ThreadDescriptor.tid");
          d.tid = e.as_int32();
        } else if (e.number == th::kThreadName) {
          d.thread_name = text_of(e, "ThreadDescriptor.thread_name");
        }
      }
      break;
    }
    case td::kCounter: {
      ProtoReader counter = message_of(field, "TrackDescriptor.counter");
      d.type = TrackType::Counter;
      WireField e;
      while (counter.next(e)) {
        namespace cd = f::counter_descriptor;
        if (e.number == cd::kType) {
          const uint64_t type = varint_of(e, "CounterDescriptor.type");
          if (d.unit.empty() && type == cd::kCounterThreadTimeNs) d.unit = "ns";
          if (d.unit.empty() && type == cd::kCounterThreadInstructionCount) d.unit = "count";
        } else if (e.number == cd::kUnit) {
          const uint64_t unit = varint_of(e, "CounterDescriptor.unit");
          d.unit = unit == cd::kUnitTimeNs      ? "ns"
                   : unit == cd::kUnitCount     ? "count"
                   : unit == cd::kUnitSizeBytes ? "bytes"
                                                : d.unit;
        } else if (e.number == cd::kUnitName) {
          d.unit = text_of(e, "CounterDescriptor.unit_name");
        } else if (e.number == cd::kUnitMultiplier) {
          d.unit_multiplier =
              static_cast<int64_t>(varint_of(e, "CounterDescriptor.unit_multiplier"));
        } else if (e.number == cd::kIsIncremental) {
          d.incremental = varint_of(e, "CounterDescriptor.is_incremental") != 0;
        }
      }
      break;
    }
    default:
      break;
    }
  }
  if (!has_uuid && !has_name && d.type == TrackType::Plain) return;
  const auto [at, added] = trace_.track_index.try_emplace(d.uuid, trace_.tracks.size());
  if (added) {
    d.cmdline = std::move(cmdline);
    trace_.tracks.push_back(std::move(d));
    return;
  }
  // A descriptor restated (a process renamed after exec, a periodic re-emit).
  TrackDescription &old = trace_.tracks[at->second];
  if (has_parent) old.parent_uuid = d.parent_uuid;
  if (has_name) old.name = d.name;
  if (d.type != TrackType::Plain) {
    old.type = d.type;
    old.pid = d.pid;
    old.tid = d.tid;
    if (!d.process_name.empty()) old.process_name = d.process_name;
    if (!d.thread_name.empty()) old.thread_name = d.thread_name;
    if (has_cmdline) old.cmdline = std::move(cmdline);
    if (d.type == TrackType::Counter) {
      old.unit = d.unit;
      old.unit_multiplier = d.unit_multiplier;
      old.incremental = d.incremental;
    }
  }
}

} // namespace prof::perfetto
