// The event parts of PacketReader: TrackEvent (type, track, name, categories,
// debug annotations, counter values, flow ids) and PerfSample with its
// interned call stack.
#include "read/packet_reader.hpp"

#include "perfetto_fields.hpp"

#include <prof/event.hpp>

#include <cstdio>
#include <limits>
#include <string>

namespace prof::perfetto {
namespace {

namespace f = field;

/// prof's well-known category whose category iid and name these are, 0 for none.
uint16_t prof_kind(uint64_t iid, std::string_view name) {
  if (iid <= prof_iids::kKindBase || iid >= prof_iids::kKindBase + PROF_CATEGORY_COUNT) return 0;
  const auto kind = static_cast<uint16_t>(iid - prof_iids::kKindBase);
  const char *known = category_name(kind);
  return known != nullptr && *known != '\0' && name == known ? kind : 0;
}

} // namespace

uint32_t PacketReader::lookup(const SequenceState::Strings &table, uint64_t iid) {
  if (const auto it = table.find(iid); it != table.end()) return it->second;
  ++trace_.left_out.missing_iids;
  return 0;
}

void PacketReader::track_event(ProtoReader reader, const Packet &packet, SequenceState &seq,
                               std::optional<int64_t> ts) {
  namespace te = f::track_event;
  const size_t args_begin = trace_.args.size(), flows_begin = trace_.flows.size();
  ReadEvent e;
  e.sequence = packet.sequence;
  e.generation = seq.generation;
  std::optional<uint64_t> type, track, counter_bits;
  bool counter_is_double = false, legacy = false, delta_us = false;
  std::optional<int64_t> absolute_us;
  std::string categories;
  std::vector<uint64_t> extra_tracks, extra_double_tracks;
  std::vector<int64_t> extra_values;
  std::vector<double> extra_double_values;
  const auto add_category = [&](uint32_t id) {
    e.has_category = true;
    if (!categories.empty()) categories += ',';
    categories += trace_.strings.text(id);
  };
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
    case te::kType:
      type = varint_of(field, "TrackEvent.type");
      break;
    case te::kTrackUuid:
      track = varint_of(field, "TrackEvent.track_uuid");
      break;
    case te::kNameIid:
      e.name = lookup(seq.event_names, varint_of(field, "TrackEvent.name_iid"));
      break;
    case te::kName:
      e.name = trace_.strings.intern(text_of(field, "TrackEvent.name"));
      break;
    case te::kCategoryIids:
      for_each_varint(field, "TrackEvent.category_iids", [&](uint64_t iid) {
        const uint32_t id = lookup(seq.event_categories, iid);
        if (const uint16_t kind = prof_kind(iid, trace_.strings.text(id));
            kind != 0 && e.kind == 0) {
          e.kind = kind;
          e.has_category = true;
        } else {
          add_category(id);
        }
      });
      break;
    case te::kCategories:
      add_category(trace_.strings.intern(text_of(field, "TrackEvent.categories")));
      break;
    case te::kDebugAnnotations:
      annotation(message_of(field, "TrackEvent.debug_annotations"), seq);
      break;
    case te::kCounterValue:
      counter_bits = varint_of(field, "TrackEvent.counter_value");
      counter_is_double = false;
      break;
    case te::kDoubleCounterValue:
      expect_type(field, WireType::Fixed64, "TrackEvent.double_counter_value");
      counter_bits = field.value;
      counter_is_double = true;
      break;
    case te::kExtraCounterTrackUuids:
      for_each_varint(field, "TrackEvent.extra_counter_track_uuids",
                      [&](uint64_t uuid) { extra_tracks.push_back(uuid); });
      break;
    case te::kExtraCounterValues:
      for_each_varint(field, "TrackEvent.extra_counter_values",
                      [&](uint64_t v) { extra_values.push_back(static_cast<int64_t>(v)); });
      break;
    case te::kExtraDoubleCounterTrackUuids:
      for_each_varint(field, "TrackEvent.extra_double_counter_track_uuids",
                      [&](uint64_t uuid) { extra_double_tracks.push_back(uuid); });
      break;
    case te::kExtraDoubleCounterValues:
      for_each_fixed64(field, "TrackEvent.extra_double_counter_values", [&](uint64_t bits) {
        WireField value;
        value.value = bits;
        extra_double_values.push_back(value.as_double());
      });
      break;
    case te::kFlowIdsOld:
      for_each_varint(field, "TrackEvent.flow_ids_old", [&](uint64_t id) {
        trace_.flows.push_back({id, false});
      });
      break;
    case te::kFlowIds:
      for_each_fixed64(field, "TrackEvent.flow_ids", [&](uint64_t id) {
        trace_.flows.push_back({id, false});
      });
      break;
    case te::kTerminatingFlowIdsOld:
      for_each_varint(field, "TrackEvent.terminating_flow_ids_old", [&](uint64_t id) {
        trace_.flows.push_back({id, true});
      });
      break;
    case te::kTerminatingFlowIds:
      for_each_fixed64(field, "TrackEvent.terminating_flow_ids", [&](uint64_t id) {
        trace_.flows.push_back({id, true});
      });
      break;
    case te::kCorrelationId:
      e.correlation = varint_of(field, "TrackEvent.correlation_id");
      break;
    case te::kTimestampAbsoluteUs:
      absolute_us = static_cast<int64_t>(varint_of(field, "TrackEvent.timestamp_absolute_us"));
      break;
    case te::kTimestampDeltaUs:
      delta_us = true;
      break;
    case te::kLegacyEvent:
      legacy = true;
      break;
    default:
      break;
    }
  }
  const auto drop = [&](uint64_t &count) {
    ++count;
    trace_.args.resize(args_begin);
    trace_.flows.resize(flows_begin);
  };
  if (legacy || !type || *type < te::kTypeSliceBegin || *type > te::kTypeCounter)
    return drop(trace_.left_out.legacy_events);
  if (absolute_us) {
    int64_t ns = 0;
    if (__builtin_mul_overflow(*absolute_us, int64_t{1000}, &ns))
      return drop(trace_.left_out.unconverted);
    ts = ns;
  } else if (delta_us && !packet.timestamp) {
    return drop(trace_.left_out.delta_us_events);
  }
  if (!ts) return drop(trace_.left_out.unconverted);

  e.ts = *ts;
  e.type = static_cast<EventType>(*type);
  e.track = track ? *track : seq.track_uuid.value_or(0);
  if (!categories.empty()) e.category = trace_.strings.intern(categories);
  if (counter_bits) {
    WireField value;
    value.value = *counter_bits;
    e.value = counter_is_double ? value.as_double() : static_cast<double>(value.as_int64());
  }
  e.args_begin = static_cast<uint32_t>(args_begin);
  e.arg_count = static_cast<uint32_t>(trace_.args.size() - args_begin);
  e.flows_begin = static_cast<uint32_t>(flows_begin);
  e.flow_count = static_cast<uint32_t>(trace_.flows.size() - flows_begin);
  trace_.events.push_back(e);

  // Counter values that ride on the event, each for its own counter track.
  const auto extra = [&](const std::vector<uint64_t> &own, const std::vector<uint64_t> &defaults,
                         auto &values) {
    const std::vector<uint64_t> &tracks = own.empty() ? defaults : own;
    for (size_t i = 0; i < values.size() && i < tracks.size(); ++i) {
      ReadEvent c;
      c.ts = e.ts;
      c.track = tracks[i];
      c.sequence = e.sequence;
      c.generation = e.generation;
      c.type = EventType::Counter;
      c.value = static_cast<double>(values[i]);
      trace_.events.push_back(c);
    }
  };
  extra(extra_tracks, seq.extra_counter_tracks, extra_values);
  extra(extra_double_tracks, seq.extra_double_counter_tracks, extra_double_values);
}

void PacketReader::annotation(ProtoReader reader, SequenceState &seq) {
  namespace da = f::debug_annotation;
  prof_arg a{};
  bool has_value = false;
  const auto text = [&](uint32_t id) {
    a.type = PROF_ARG_STRING;
    a.value.u = 0; // no stray upper bytes beside the 32-bit id
    a.value.s = id;
    has_value = true;
  };
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
    case da::kNameIid:
      a.key = lookup(seq.annotation_names, varint_of(field, "DebugAnnotation.name_iid"));
      break;
    case da::kName:
      a.key = trace_.strings.intern(text_of(field, "DebugAnnotation.name"));
      break;
    case da::kBoolValue:
      text(trace_.strings.intern(varint_of(field, "DebugAnnotation.bool_value") != 0 ? "true"
                                                                                     : "false"));
      break;
    case da::kUintValue:
    case da::kPointerValue:
      a.type = PROF_ARG_UINT;
      a.value.u = varint_of(field, "DebugAnnotation.uint_value");
      has_value = true;
      break;
    case da::kIntValue:
      a.type = PROF_ARG_INT;
      a.value.i = static_cast<int64_t>(varint_of(field, "DebugAnnotation.int_value"));
      has_value = true;
      break;
    case da::kDoubleValue:
      expect_type(field, WireType::Fixed64, "DebugAnnotation.double_value");
      a.type = PROF_ARG_DOUBLE;
      a.value.d = field.as_double();
      has_value = true;
      break;
    case da::kStringValue:
    case da::kLegacyJsonValue:
      text(trace_.strings.intern(text_of(field, "DebugAnnotation.string_value")));
      break;
    case da::kStringValueIid:
      text(lookup(seq.annotation_values, varint_of(field, "DebugAnnotation.string_value_iid")));
      break;
    default:
      break; // nested values, dictionaries, arrays, proto values
    }
  }
  if (a.key != 0 && has_value) trace_.args.push_back(a);
}

uint32_t PacketReader::frame_name(uint64_t frame, const SequenceState &seq) {
  const auto it = seq.frames.find(frame);
  if (it == seq.frames.end()) {
    ++trace_.left_out.missing_iids;
    return trace_.strings.intern("[unknown]");
  }
  if (const auto name = seq.function_names.find(it->second.function_name);
      name != seq.function_names.end() && !trace_.strings.text(name->second).empty())
    return name->second;
  // No symbol: the mapping's file and the offset in it.
  std::string where;
  if (const auto mapping = seq.mappings.find(it->second.mapping); mapping != seq.mappings.end())
    for (const uint64_t part : mapping->second)
      if (const auto path = seq.mapping_paths.find(part); path != seq.mapping_paths.end())
        where += (where.empty() ? "" : "/") + trace_.strings.text(path->second);
  char offset[24];
  std::snprintf(offset, sizeof offset, "0x%llx",
                static_cast<unsigned long long>(it->second.rel_pc));
  return trace_.strings.intern(where.empty() ? std::string(offset) : where + "+" + offset);
}

uint32_t PacketReader::stack_of(uint64_t callstack, SequenceState &seq) {
  if (const auto known = seq.stack_ids.find(callstack); known != seq.stack_ids.end())
    return known->second;
  const auto it = seq.callstacks.find(callstack);
  if (it == seq.callstacks.end()) {
    ++trace_.left_out.missing_iids;
    return 0;
  }
  std::vector<uint32_t> frames; // prof lists frames leaf first; Callstack root first
  frames.reserve(it->second.size());
  for (auto frame = it->second.rbegin(); frame != it->second.rend(); ++frame)
    frames.push_back(frame_name(*frame, seq));
  uint32_t id = 0;
  if (!frames.empty()) {
    const auto [at, added] =
        stack_index_.try_emplace(frames, static_cast<uint32_t>(trace_.stacks.size()));
    if (added) trace_.stacks.push_back(std::move(frames));
    id = at->second;
  }
  return seq.stack_ids[callstack] = id;
}

void PacketReader::perf_sample(ProtoReader reader, SequenceState &seq, std::optional<int64_t> ts) {
  namespace ps = f::perf_sample;
  ReadSample s;
  uint64_t callstack = 0;
  WireField field;
  while (reader.next(field)) {
    if (field.number == ps::kPid)
      s.pid = static_cast<int32_t>(varint_of(field, "PerfSample.pid"));
    else if (field.number == ps::kTid)
      s.tid = static_cast<int32_t>(varint_of(field, "PerfSample.tid"));
    else if (field.number == ps::kCallstackIid)
      callstack = varint_of(field, "PerfSample.callstack_iid");
  }
  if (callstack == 0) return; // a sample skipped by the kernel or the profiler
  if (!ts) {
    ++trace_.left_out.unconverted;
    return;
  }
  s.ts = *ts;
  s.stack = stack_of(callstack, seq);
  if (s.stack != 0) trace_.samples.push_back(s);
}

} // namespace prof::perfetto
