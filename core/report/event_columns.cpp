#include "core/report/event_columns.hpp"

#include "core/report/byte_planes.hpp"
#include "core/report/event_columns_layout1.hpp"
#include "core/report/event_fields.hpp"
#include <prof/byte_codec.hpp>

#include <algorithm>
#include <cstring>

namespace prof::report {
namespace {

enum Column : size_t {
  kType,
  kTrack,
  kTsRef,
  kTs,
  kEndRef,
  kDuration,
  kName,
  kCategory,
  kId,
  kFlags,
  kValue,
  kCounterId,
  kKind,
  kArgs
};

// Worst-case encoded bytes per event in each column (byte-plane columns apart).
constexpr std::array<size_t, kEventColumnCount> kMaxBytes = {1, 5,  1, 0, 1,  0, 5,
                                                             5, 10, 1, 8, 10, 0, 0};

bool is_planes(size_t column) {
  return column == kTs || column == kDuration || column == kKind || column == kArgs;
}

uint32_t zigzag32(uint32_t delta) {
  const auto v = static_cast<int32_t>(delta);
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}

uint32_t unzigzag32(uint32_t v) { return (v >> 1) ^ (0u - (v & 1u)); }

bool decode_layout2(uint64_t count, uint64_t start, std::span<ByteReader, kEventColumnCount> col,
                    size_t known, uint64_t layout, std::vector<prof_event> &out) {
  const bool has_args = known > kArgs;
  // Kept per thread: each holds a decoded column, room that is then reused.
  thread_local BytePlaneReader kinds, args, ts_deltas, durations;
  if (has_args) {
    if (!kinds.open(col[kKind].bytes(col[kKind].remaining())) ||
        !args.open(col[kArgs].bytes(col[kArgs].remaining())))
      return false;
  } else { // a payload from before them: every kind and args id is 0
    constexpr uint8_t kAllZero[] = {0};
    kinds.open(kAllZero);
    args.open(kAllZero);
  }
  if (!ts_deltas.open(col[kTs].bytes(col[kTs].remaining())) ||
      !durations.open(col[kDuration].bytes(col[kDuration].remaining())))
    return false;
  // Reused buffers keep their size: every event is written whole, once.
  out.resize(static_cast<size_t>(count));
  const auto types = col[kType].bytes(static_cast<size_t>(count));
  // Local copies of the per-event columns stay in registers.
  ByteReader tracks = col[kTrack], ts_refs = col[kTsRef], end_refs = col[kEndRef];
  ByteReader names = col[kName], categories = col[kCategory], ids = col[kId];
  ByteReader flags = col[kFlags], values = col[kValue], counter_ids = col[kCounterId];
  RecentTimes recent;
  uint32_t track = 0;
  uint64_t end = start;
  uint64_t id = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    prof_event e{};
    e.type = types[i];
    const uint8_t fields = kEventFields[e.type];
    track += unzigzag32(tracks.varint32());
    e.track = track;
    const uint8_t ts_ref = ts_refs.u8();
    if (ts_ref != 0 && !recent.holds(ts_ref)) return false;
    e.ts = ts_ref != 0 ? recent.at(ts_ref)
                       : end + static_cast<uint64_t>(zigzag_decode(ts_deltas.next()));
    recent.add(e.ts);
    end = e.ts;
    e.name = names.varint32();
    e.category = categories.varint32();
    if (fields & kHasDuration) {
      const uint8_t end_ref = end_refs.u8();
      if (end_ref != 0 && !recent.holds(end_ref)) return false;
      end = end_ref != 0 ? recent.at(end_ref) : e.ts + durations.next();
      e.duration = end - e.ts;
      recent.add(end);
    }
    if (fields & kHasId) {
      id += static_cast<uint64_t>(ids.svarint());
      e.id = id;
    }
    if (fields & kHasFlags) e.flags = flags.u8();
    if (fields & kHasValue) e.value = values.f64();
    if (fields & kHasCounterId) e.id = counter_ids.varint();
    if (fields & kHasKind) {
      uint64_t kind = kinds.next();
      if (layout >= 3 && e.type == PROF_EVENT_SLICE) { // its flags above the kind
        if (kind >> 24 != 0) return false;
        e.flags = static_cast<uint8_t>(kind >> 16);
        kind &= UINT16_MAX;
      }
      if (kind > UINT16_MAX) return false;
      e.kind = static_cast<uint16_t>(kind);
    }
    if (fields & kHasArgs) {
      const uint64_t set = args.next();
      if (set > UINT32_MAX) return false;
      e.args = set;
    }
    out[i] = e;
  }
  col[kTrack] = tracks;
  col[kTsRef] = ts_refs;
  col[kEndRef] = end_refs;
  col[kName] = names;
  col[kCategory] = categories;
  col[kId] = ids;
  col[kFlags] = flags;
  col[kValue] = values;
  col[kCounterId] = counter_ids;
  for (const auto &c : col)
    if (!c.ok() || !c.at_end()) return false;
  return ts_deltas.ok() && ts_deltas.at_end() && durations.ok() && durations.at_end() &&
         kinds.ok() && kinds.at_end() && args.ok() && args.at_end();
}

} // namespace

EventColumnEncoder::EventColumnEncoder(size_t capacity) : capacity_(capacity) {
  // Not zeroed: every byte is written before it is read, and zeroing the
  // 4 MiB of a 64k-event chunk's room took milliseconds of every start.
  constexpr size_t kAlign = 64;
  const auto rounded = [](size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; };
  std::array<size_t, kEventColumnCount> room{};
  size_t total = 4 * rounded(capacity * sizeof(uint64_t));
  for (size_t c = 0; c < kEventColumnCount; ++c) {
    room[c] = is_planes(c) ? byte_planes_room(capacity) : capacity * kMaxBytes[c];
    total += rounded(room[c]);
  }
  arena_ = std::make_unique_for_overwrite<uint8_t[]>(total);
  uint8_t *next = arena_.get();
  for (size_t c = 0; c < kEventColumnCount; ++c) {
    columns_[c].data = columns_[c].end = next;
    next += rounded(room[c]);
  }
  for (Values *values : {&ts_deltas_, &durations_, &kinds_, &args_}) {
    values->data = values->end = reinterpret_cast<uint64_t *>(next);
    next += rounded(capacity * sizeof(uint64_t));
  }
}

void EventColumnEncoder::add(const prof_event *events, size_t count) {
  // Local cursors let the compiler keep them in registers.
  uint8_t *types = columns_[kType].end;
  uint8_t *tracks = columns_[kTrack].end;
  uint8_t *ts_refs = columns_[kTsRef].end;
  uint8_t *end_refs = columns_[kEndRef].end;
  uint8_t *names = columns_[kName].end;
  uint8_t *categories = columns_[kCategory].end;
  uint8_t *ids = columns_[kId].end;
  uint8_t *flags = columns_[kFlags].end;
  uint8_t *values = columns_[kValue].end;
  uint8_t *counter_ids = columns_[kCounterId].end;
  uint64_t *kinds = kinds_.end;
  uint64_t *args = args_.end;
  uint64_t *ts_deltas = ts_deltas_.end;
  uint64_t *durations = durations_.end;
  RecentTimes &recent = recent_;
  if (size_ == 0 && count > 0) start_ = prev_end_ = events[0].ts;
  uint32_t prev_track = prev_track_;
  uint64_t prev_end = prev_end_;
  uint64_t prev_id = prev_id_;

  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    const uint8_t fields = kEventFields[e.type];
    *types++ = e.type;
    tracks = put_varint(tracks, zigzag32(e.track - prev_track));
    prev_track = e.track;
    // A delta is stored only when the time was not seen lately; writing it
    // anyway and advancing conditionally keeps the loop free of branches.
    const uint8_t ts_ref = recent.see(e.ts);
    *ts_refs++ = ts_ref;
    *ts_deltas = zigzag_encode(static_cast<int64_t>(e.ts - prev_end));
    ts_deltas += ts_ref == 0;
    prev_end = e.ts;
    names = put_varint(names, e.name);
    categories = put_varint(categories, e.category);
    if (fields & kHasDuration) {
      prev_end = e.ts + e.duration;
      const uint8_t end_ref = recent.see(prev_end);
      *end_refs++ = end_ref;
      *durations = e.duration;
      durations += end_ref == 0;
    }
    if (fields & kHasId) {
      ids = put_varint(ids, zigzag_encode(static_cast<int64_t>(e.id - prev_id)));
      prev_id = e.id;
    }
    if (fields & kHasFlags) *flags++ = e.flags;
    if (fields & kHasValue) {
      std::memcpy(values, &e.value, 8);
      values += 8;
    }
    if (fields & kHasCounterId) counter_ids = put_varint(counter_ids, e.id);
    if (fields & kHasKind)
      *kinds++ = e.kind | (e.type == PROF_EVENT_SLICE ? uint64_t{e.flags} << 16 : 0);
    if (fields & kHasArgs) *args++ = e.args;
  }

  columns_[kType].end = types;
  columns_[kTrack].end = tracks;
  columns_[kTsRef].end = ts_refs;
  columns_[kEndRef].end = end_refs;
  columns_[kName].end = names;
  columns_[kCategory].end = categories;
  columns_[kId].end = ids;
  columns_[kCounterId].end = counter_ids;
  columns_[kFlags].end = flags;
  columns_[kValue].end = values;
  kinds_.end = kinds;
  args_.end = args;
  ts_deltas_.end = ts_deltas;
  durations_.end = durations;
  prev_track_ = prev_track;
  prev_end_ = prev_end;
  prev_id_ = prev_id;
  size_ += count;
}

std::array<std::span<const uint8_t>, 1 + kEventColumnCount> EventColumnEncoder::payload_pieces() {
  Column &ts = columns_[kTs];
  ts.end = ts.data + write_byte_planes(ts_deltas_.span(), ts.data);
  Column &durations = columns_[kDuration];
  durations.end = durations.data + write_byte_planes(durations_.span(), durations.data);
  for (auto [column, values] : {std::pair{kKind, &kinds_}, std::pair{kArgs, &args_}})
    columns_[column].end =
        columns_[column].data + write_byte_planes(values->span(), columns_[column].data);

  uint8_t *p = directory_.data();
  p = put_varint(p, size_);
  p = put_varint(p, 0); // not a column count: a layout number follows
  p = put_varint(p, kEventLayout);
  p = put_varint(p, start_);
  p = put_varint(p, kEventColumnCount);
  for (const auto &column : columns_)
    p = put_varint(p, column.size());
  std::array<std::span<const uint8_t>, 1 + kEventColumnCount> pieces;
  pieces[0] = {directory_.data(), static_cast<size_t>(p - directory_.data())};
  for (size_t c = 0; c < kEventColumnCount; ++c)
    pieces[c + 1] = {columns_[c].data, columns_[c].size()};
  return pieces;
}

size_t EventColumnEncoder::payload_size() {
  size_t total = 0;
  for (const auto &piece : payload_pieces())
    total += piece.size();
  return total;
}

void EventColumnEncoder::append_payload(std::vector<uint8_t> &out) {
  for (const auto &piece : payload_pieces())
    out.insert(out.end(), piece.begin(), piece.end());
}

void EventColumnEncoder::clear() {
  for (auto &column : columns_)
    column.end = column.data;
  for (Values *values : {&ts_deltas_, &durations_, &kinds_, &args_})
    values->end = values->data;
  recent_.clear();
  size_ = 0;
  start_ = 0;
  prev_track_ = 0;
  prev_end_ = 0;
  prev_id_ = 0;
}

bool peek_event_count(std::span<const uint8_t> payload, uint64_t &count) {
  ByteReader in(payload);
  count = in.varint();
  return in.ok();
}

bool decode_event_columns(std::span<const uint8_t> payload, std::vector<prof_event> &out) {
  ByteReader in(payload);
  const uint64_t count = in.varint();
  uint64_t column_count = in.varint();
  uint64_t layout = 1;
  uint64_t start = 0;
  if (column_count == 0) {
    layout = in.varint();
    start = in.varint();
    column_count = in.varint();
  }
  size_t fewest = 0, most = 0;
  if (layout == 1) {
    fewest = layout1::kFirstColumnCount;
    most = layout1::kColumnCount;
  } else if (layout == 2 || layout == kEventLayout) {
    fewest = kEventColumnCountBeforeArgs;
    most = kEventColumnCount;
  } else {
    return false;
  }
  if (!in.ok() || column_count < fewest || column_count > in.remaining()) return false;
  const size_t known = std::min<uint64_t>(column_count, most);
  std::array<uint64_t, kEventColumnCount> lengths{};
  for (size_t c = 0; c < known; ++c)
    lengths[c] = in.varint();
  for (uint64_t c = known; c < column_count; ++c)
    in.varint(); // later columns: skipped below
  if (!in.ok()) return false;
  std::array<ByteReader, kEventColumnCount> col;
  for (size_t c = 0; c < known; ++c) {
    if (lengths[c] > in.remaining()) return false;
    col[c] = ByteReader(in.bytes(static_cast<size_t>(lengths[c])));
  }
  // One type byte per event (the first column of both layouts) bounds the
  // count by the payload size.
  if (count != lengths[0]) return false;
  if (layout == 1) return layout1::decode(count, std::span(col).first(known), out);
  return decode_layout2(count, start, col, known, layout, out);
}

} // namespace prof::report
