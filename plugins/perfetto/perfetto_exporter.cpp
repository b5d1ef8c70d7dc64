#include "perfetto_exporter.hpp"

#include "perfetto_fields.hpp"
#include "trace_packet.hpp"
#include "track_event_packet.hpp"

#include <cmath>
#include <cstddef>

namespace prof::perfetto {

namespace {

namespace f = field;

/// iid of the name "flow", outside the range of prof string ids (uint32).
constexpr uint64_t kFlowNameIid = prof_iids::kFlowName;
// Category iids of the well-known categories: past every string id.
constexpr uint64_t kKindIidBase = prof_iids::kKindBase;
/// The one synthetic mapping that holds every frame, and its path's iid.
constexpr uint64_t kMappingIid = 1;
constexpr uint64_t kMappingPathIid = 1;

/// Frame and function-name iids: the string id plus one (iid 0 means unset).
constexpr uint64_t frame_iid(prof_string_id function) { return uint64_t{function} + 1; }

} // namespace

bool PerfettoExporter::fail(const std::string &message) {
  writer_.reset();
  return file_.fail(message);
}

bool PerfettoExporter::begin() {
  if (!file_.open(kOptions)) return false;
  writer_.emplace(file_.file());
  ahead_.emplace();
  out_.clear();
  sequences_.clear();
  sequence(0); // the main sequence comes first
  return true;
}

PacketSequence &PerfettoExporter::start_sequence(prof_track_id track) {
  if (track >= sequences_.size()) sequences_.resize(track + size_t{1} + sequences_.size() / 2);
  PacketSequence &s = sequences_[track];
  s.id = track == 0 ? kMainSequenceId : kMainSequenceId + track;
  // Interned state starts empty here, and the timestamps of the packets after
  // it are deltas on the sequence's clock. The main sequence's snapshot
  // carries the wall clock, for prof import.
  s.clock.write_first_packet(out_, s.id, track == 0 ? 0 : PerfettoTracks::uuid(track),
                             track == 0 ? realtime_at_zero() : 0);
  return s;
}

uint64_t PerfettoExporter::realtime_at_zero() const {
  const prof_session_info &session = host_.session();
  if (session.struct_size <
          offsetof(prof_session_info, monotonic_anchor_ns) + sizeof session.monotonic_anchor_ns ||
      session.realtime_anchor_ns <= session.monotonic_anchor_ns)
    return 0;
  return session.realtime_anchor_ns - session.monotonic_anchor_ns;
}

bool PerfettoExporter::consume(const prof_event *events, size_t count) {
  if (file_.failed()) return false;
  while (count > BatchOrder::kMaxBatch) { // never in practice; keeps indexes 32-bit
    if (!consume(events, BatchOrder::kMaxBatch)) return false;
    events += BatchOrder::kMaxBatch;
    count -= BatchOrder::kMaxBatch;
  }
  events_ += count;
  if (count < kSortAheadEvents) {
    if (!write_pending()) return false;
    return write_batch(events, order_.order(events, count), order_);
  }
  // The thread copies and orders this batch while the one before is written;
  // `events` are the caller's again once it has copied them.
  const SortAhead::Batch *previous = ahead_->push(events, count);
  const struct WaitCopied {
    SortAhead &ahead;
    ~WaitCopied() { ahead.wait_copied(); }
  } wait_copied{*ahead_};
  return previous == nullptr ||
         write_batch(previous->events.data(), previous->packets, previous->order);
}

bool PerfettoExporter::write_pending() {
  const SortAhead::Batch *pending = ahead_->finish();
  return pending == nullptr ||
         write_batch(pending->events.data(), pending->packets, pending->order);
}

bool PerfettoExporter::write_batch(const prof_event *events, std::span<const uint64_t> packets,
                                   const BatchOrder &order) {
  constexpr size_t kAhead = 16; // events are visited out of order: fetch them early
  for (size_t i = 0; i < packets.size(); ++i) {
    if (i + kAhead < packets.size()) { // an event may straddle two cache lines
      const char *ahead = reinterpret_cast<const char *>(&events[order.event(packets[i + kAhead])]);
      __builtin_prefetch(ahead);
      __builtin_prefetch(ahead + sizeof(prof_event) - 1);
    }
    write(events[order.event(packets[i])], BatchOrder::end(packets[i]));
    if (out_.size() >= kFlushBytes && !flush()) return false;
  }
  return true;
}

bool PerfettoExporter::end() {
  if (file_.failed()) return false;
  if (!write_pending()) return false;
  tracks_.refresh_names(out_);
  if (!flush()) return false;
  if (!writer_->finish()) return fail(file_.file().error());
  writer_.reset();
  if (!file_.commit()) return false;
  if (skipped_ > 0)
    host_.log(PROF_LOG_WARN, "perfetto: " + std::to_string(skipped_) +
                                 " events left out (counter values off counter tracks, slices on "
                                 "counter tracks, samples without a call stack)");
  file_.log_written(events_);
  return true;
}

bool PerfettoExporter::flush() {
  if (out_.size() == 0) return true;
  if (!writer_->write(out_)) return fail(file_.file().error());
  return true;
}

void PerfettoExporter::write(const prof_event &e, bool slice_end) {
  switch (e.type) {
  case PROF_EVENT_SLICE:
  case PROF_EVENT_INSTANT:
  case PROF_EVENT_FLOW: {
    tracks_.use(e.track, out_);
    if (e.track != 0 && tracks_.info(e.track).counter) {
      if (!slice_end) ++skipped_;
      return;
    }
    if (slice_end) {
      PacketSequence &s = sequence(e.track);
      TrackEventPacket packet;
      packet.sequence_id = s.id;
      packet.timestamp = s.clock.delta(e.ts + e.duration, out_);
      packet.type = f::track_event::kTypeSliceEnd;
      packet.name_iid = s.close(e.name);
      write_packet(out_, packet);
      return;
    }
    const bool begin = e.type == PROF_EVENT_SLICE && e.duration > 0;
    const uint32_t type = begin ? f::track_event::kTypeSliceBegin : f::track_event::kTypeInstant;
    if (e.id == 0 || e.type == PROF_EVENT_FLOW) {
      write_track_event(e, type, e.id);
    } else if (!on_call_track(e.track)) {
      write_track_event(e, type, flows_.work(e) ? e.id : 0);
    } else {
      write_track_event(e, type, e.id);
      if (const auto early = flows_.call(e.id)) write_early_work_flow(*early, e.id);
    }
    return;
  }
  case PROF_EVENT_COUNTER: {
    tracks_.use(e.track, out_);
    if (e.track == 0 || !tracks_.info(e.track).counter) {
      ++skipped_;
      return;
    }
    write_counter(e);
    return;
  }
  case PROF_EVENT_SAMPLE:
    write_sample(e);
    return;
  default:
    ++skipped_;
    return;
  }
}

void PerfettoExporter::intern_entry(uint32_t field, uint64_t iid, std::string_view text) {
  out_.begin_nested(field);
  out_.field_varint(f::interned_entry::kIid, iid);
  out_.field_bytes(f::interned_entry::kName, text);
  out_.end_nested();
}

bool PerfettoExporter::on_call_track(prof_track_id track) {
  if (track >= call_tracks_.size()) call_tracks_.resize(track + size_t{1} + track / 2);
  uint8_t &known = call_tracks_[track];
  if (known == 0) {
    bool on_device = false;
    const prof_track_desc *desc = track == 0 ? nullptr : host_.track(track);
    for (int depth = 0; desc != nullptr && depth < 64 && !on_device; ++depth) {
      on_device = desc->kind == PROF_TRACK_DEVICE;
      desc = desc->parent == 0 ? nullptr : host_.track(desc->parent);
    }
    known = on_device ? 2 : 1;
  }
  return known == 1;
}

void PerfettoExporter::write_early_work_flow(const FlowEnds::EarlyWork &work, uint64_t id) {
  prof_event e{};
  e.type = PROF_EVENT_FLOW;
  e.track = work.track;
  e.name = work.name;
  e.ts = work.ts;
  e.id = id;
  write_track_event(e, f::track_event::kTypeInstant, id);
}

void PerfettoExporter::write_track_event(const prof_event &e, uint32_t type, uint64_t flow_id) {
  PacketSequence &s = sequence(e.track);
  const bool flow = e.type == PROF_EVENT_FLOW;
  uint64_t name_iid = e.name;
  bool new_name = e.name != 0 && s.names.insert(e.name);
  if (flow && e.name == 0) {
    name_iid = kFlowNameIid;
    new_name = !s.flow_name_written;
    s.flow_name_written = true;
  }
  const bool new_category = e.category != 0 && s.categories.insert(e.category);
  // The well-known category goes beside the vendor's as a second one.
  const uint16_t kind = flow || e.kind >= 32 || !*category_name(e.kind) ? 0 : e.kind;
  const bool new_kind = kind != 0 && !(s.kinds_written & (1u << kind));
  s.kinds_written |= kind != 0 ? 1u << kind : 0;
  const std::span<const prof_arg> args = flow ? std::span<const prof_arg>() : host_.args(e.args);

  if (type == f::track_event::kTypeSliceBegin) s.open.push_back(name_iid);
  TrackEventPacket packet;
  packet.sequence_id = s.id;
  packet.timestamp = s.clock.delta(e.ts, out_);
  packet.type = type;
  packet.name_iid = name_iid;
  packet.category_iid = e.category;
  packet.kind_iid = kind != 0 ? kKindIidBase + kind : 0;
  packet.flow_id = flow_id;
  packet.terminating_flow = flow && e.flags == PROF_FLOW_END;
  if (!new_name && !new_category && !new_kind && args.empty()) {
    write_packet(out_, packet);
    return;
  }
  begin_timed_packet(out_, s.id, packet.timestamp);
  if (new_name || new_category || new_kind) {
    out_.begin_nested(f::packet::kInternedData);
    if (new_name)
      intern_entry(f::interned_data::kEventNames, name_iid,
                   name_iid == kFlowNameIid ? prof_iids::kFlowNameText : host_.string(e.name));
    if (new_category)
      intern_entry(f::interned_data::kEventCategories, e.category, host_.string(e.category));
    if (new_kind)
      intern_entry(f::interned_data::kEventCategories, packet.kind_iid, category_name(kind));
    out_.end_nested();
  }
  if (args.empty()) {
    out_.commit(put_track_event(out_.claim(kMaxTrackEvent), packet));
  } else {
    out_.begin_nested(f::packet::kTrackEvent);
    out_.commit(put_track_event_fields(out_.claim(kMaxTrackEvent), packet));
    write_debug_annotations(args);
    out_.end_nested();
  }
  end_packet(out_);
}

void PerfettoExporter::write_debug_annotations(std::span<const prof_arg> args) {
  namespace d = f::debug_annotation;
  for (const prof_arg &a : args) {
    out_.begin_nested(f::track_event::kDebugAnnotations);
    out_.field_bytes(d::kName, host_.string(a.key));
    switch (a.type) {
    case PROF_ARG_INT:
      out_.field_int(d::kIntValue, a.value.i);
      break;
    case PROF_ARG_UINT:
      out_.field_varint(d::kUintValue, a.value.u);
      break;
    case PROF_ARG_DOUBLE:
      out_.field_double(d::kDoubleValue, a.value.d);
      break;
    default:
      out_.field_bytes(d::kStringValue, host_.arg_text(a));
      break;
    }
    out_.end_nested();
  }
}

void PerfettoExporter::write_counter(const prof_event &e) {
  PacketSequence &s = sequence(e.track);            // its default track is the counter's
  const uint64_t delta = s.clock.delta(e.ts, out_); // may restart the clock first
  begin_timed_packet(out_, s.id, delta);
  out_.begin_nested(f::packet::kTrackEvent);
  out_.field_varint(f::track_event::kType, f::track_event::kTypeCounter);
  // Integral values (bytes, counts) take a varint; others a double.
  constexpr double kExactLimit = 9007199254740992.0; // 2^53
  if (std::nearbyint(e.value) == e.value && std::fabs(e.value) < kExactLimit)
    out_.field_int(f::track_event::kCounterValue, static_cast<int64_t>(e.value));
  else
    out_.field_double(f::track_event::kDoubleCounterValue, e.value);
  out_.end_nested();
  end_packet(out_);
}

void PerfettoExporter::write_sample(const prof_event &e) {
  uint32_t count = 0;
  const prof_string_id *frames =
      e.id != 0 ? host_.api()->stack(host_.context(), static_cast<prof_stack_id>(e.id), &count)
                : nullptr;
  if (frames == nullptr || count == 0) {
    ++skipped_;
    return;
  }
  // The call stack of something else (emit_stack: a blocking call's) is no
  // CPU sample: as a PerfSample it would join Perfetto's CPU profile.
  if (e.category != 0) return;
  int32_t pid = 0, tid = 0;
  if (e.track != 0) {
    tracks_.use(e.track, out_); // names the thread in the UI
    pid = tracks_.info(e.track).pid;
    tid = tracks_.info(e.track).tid;
  }

  PacketSequence &main = sequence(0);
  const uint64_t delta = main.clock.delta(e.ts, out_); // may restart the clock first
  begin_timed_packet(out_, main.id, delta);
  if (stacks_.insert(e.id)) {
    out_.begin_nested(f::packet::kInternedData);
    if (!mapping_written_) {
      mapping_written_ = true;
      intern_entry(f::interned_data::kMappingPaths, kMappingPathIid, "[prof]");
      out_.begin_nested(f::interned_data::kMappings);
      out_.field_varint(f::mapping::kIid, kMappingIid);
      out_.field_varint(f::mapping::kStart, 0);
      out_.field_varint(f::mapping::kEnd, 1ull << 40);
      out_.field_varint(f::mapping::kPathStringIds, kMappingPathIid);
      out_.end_nested();
    }
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t iid = frame_iid(frames[i]);
      if (!frames_.insert(iid)) continue;
      intern_entry(f::interned_data::kFunctionNames, iid, host_.string(frames[i]));
      out_.begin_nested(f::interned_data::kFrames);
      out_.field_varint(f::frame::kIid, iid);
      out_.field_varint(f::frame::kFunctionNameId, iid);
      out_.field_varint(f::frame::kMappingId, kMappingIid);
      out_.field_varint(f::frame::kRelPc, iid);
      out_.end_nested();
    }
    // prof lists frames leaf first; Perfetto's Callstack wants the root first.
    out_.begin_nested(f::interned_data::kCallstacks);
    out_.field_varint(f::callstack::kIid, e.id);
    for (uint32_t i = count; i-- > 0;)
      out_.field_varint(f::callstack::kFrameIds, frame_iid(frames[i]));
    out_.end_nested();
    out_.end_nested();
  }
  out_.begin_nested(f::packet::kPerfSample);
  if (pid != 0) out_.field_varint(f::perf_sample::kPid, static_cast<uint32_t>(pid));
  if (tid != 0) out_.field_varint(f::perf_sample::kTid, static_cast<uint32_t>(tid));
  out_.field_varint(f::perf_sample::kCallstackIid, e.id);
  out_.end_nested();
  end_packet(out_);
}

} // namespace prof::perfetto
