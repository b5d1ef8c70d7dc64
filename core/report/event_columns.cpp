#include "core/report/event_columns.hpp"

#include "core/report/byte_codec.hpp"

#include <algorithm>
#include <cstring>

namespace prof::report {
namespace {

enum Column : size_t {
  kType, kTrack, kTs, kDuration, kName, kCategory, kId, kFlags, kValue, kCounterId
};

// Payloads of the first format have no counter-id column.
constexpr size_t kFirstColumnCount = 9;

enum FieldBit : uint8_t {
  kHasDuration = 1,
  kHasId = 2,
  kHasFlags = 4,
  kHasValue = 8,
  kHasCounterId = 16
};

// Worst-case encoded bytes per event in each column.
constexpr std::array<size_t, kEventColumnCount> kMaxBytes = {1, 5, 10, 10, 5, 5, 10, 1, 8, 10};

constexpr std::array<uint8_t, 256> make_field_table() {
  std::array<uint8_t, 256> t{};
  for (auto &fields : t)
    fields = kHasDuration | kHasId | kHasFlags | kHasValue; // unknown types keep all
  t[PROF_EVENT_SLICE] = kHasDuration | kHasId;
  t[PROF_EVENT_INSTANT] = 0;
  t[PROF_EVENT_COUNTER] = kHasValue | kHasCounterId;
  t[PROF_EVENT_SAMPLE] = kHasId;
  t[PROF_EVENT_FLOW] = kHasId | kHasFlags;
  return t;
}

constexpr std::array<uint8_t, 256> kFields = make_field_table();

uint32_t zigzag32(uint32_t delta) {
  const auto v = static_cast<int32_t>(delta);
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}

uint32_t unzigzag32(uint32_t v) { return (v >> 1) ^ (0u - (v & 1u)); }

} // namespace

EventColumnEncoder::EventColumnEncoder(size_t capacity) : capacity_(capacity) {
  for (size_t c = 0; c < kEventColumnCount; ++c) {
    columns_[c].data = std::make_unique<uint8_t[]>(capacity * kMaxBytes[c]);
    columns_[c].end = columns_[c].data.get();
  }
}

void EventColumnEncoder::add(const prof_event *events, size_t count) {
  // Local cursors let the compiler keep them in registers.
  uint8_t *types = columns_[kType].end;
  uint8_t *tracks = columns_[kTrack].end;
  uint8_t *ts = columns_[kTs].end;
  uint8_t *durations = columns_[kDuration].end;
  uint8_t *names = columns_[kName].end;
  uint8_t *categories = columns_[kCategory].end;
  uint8_t *ids = columns_[kId].end;
  uint8_t *flags = columns_[kFlags].end;
  uint8_t *values = columns_[kValue].end;
  uint8_t *counter_ids = columns_[kCounterId].end;
  uint32_t prev_track = prev_track_;
  uint64_t prev_ts = prev_ts_;
  uint64_t prev_id = prev_id_;

  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    const uint8_t fields = kFields[e.type];
    *types++ = e.type;
    tracks = put_varint(tracks, zigzag32(e.track - prev_track));
    prev_track = e.track;
    ts = put_varint(ts, zigzag_encode(static_cast<int64_t>(e.ts - prev_ts)));
    prev_ts = e.ts;
    names = put_varint(names, e.name);
    categories = put_varint(categories, e.category);
    if (fields & kHasDuration) durations = put_varint(durations, e.duration);
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
  }

  columns_[kType].end = types;
  columns_[kTrack].end = tracks;
  columns_[kTs].end = ts;
  columns_[kDuration].end = durations;
  columns_[kName].end = names;
  columns_[kCategory].end = categories;
  columns_[kId].end = ids;
  columns_[kCounterId].end = counter_ids;
  columns_[kFlags].end = flags;
  columns_[kValue].end = values;
  prev_track_ = prev_track;
  prev_ts_ = prev_ts;
  prev_id_ = prev_id;
  size_ += count;
}

std::array<std::span<const uint8_t>, 1 + kEventColumnCount> EventColumnEncoder::payload_pieces() {
  uint8_t *p = directory_.data();
  p = put_varint(p, size_);
  p = put_varint(p, kEventColumnCount);
  for (const auto &column : columns_)
    p = put_varint(p, column.size());
  std::array<std::span<const uint8_t>, 1 + kEventColumnCount> pieces;
  pieces[0] = {directory_.data(), static_cast<size_t>(p - directory_.data())};
  for (size_t c = 0; c < kEventColumnCount; ++c)
    pieces[c + 1] = {columns_[c].data.get(), columns_[c].size()};
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
    column.end = column.data.get();
  size_ = 0;
  prev_track_ = 0;
  prev_ts_ = 0;
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
  const uint64_t column_count = in.varint();
  if (!in.ok() || column_count < kFirstColumnCount || column_count > in.remaining()) return false;
  const size_t known = std::min<uint64_t>(column_count, kEventColumnCount);
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
  // One type byte per event bounds the count by the payload size.
  if (count != lengths[kType]) return false;

  out.assign(static_cast<size_t>(count), prof_event{});
  const auto types = col[kType].bytes(static_cast<size_t>(count));
  uint32_t track = 0;
  uint64_t ts = 0;
  uint64_t id = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    prof_event &e = out[i];
    e.type = types[i];
    const uint8_t fields = kFields[e.type];
    track += unzigzag32(col[kTrack].varint32());
    e.track = track;
    ts += static_cast<uint64_t>(col[kTs].svarint());
    e.ts = ts;
    e.name = col[kName].varint32();
    e.category = col[kCategory].varint32();
    if (fields & kHasDuration) e.duration = col[kDuration].varint();
    if (fields & kHasId) {
      id += static_cast<uint64_t>(col[kId].svarint());
      e.id = id;
    }
    if (fields & kHasFlags) e.flags = col[kFlags].u8();
    if (fields & kHasValue) e.value = col[kValue].f64();
    if ((fields & kHasCounterId) && known > kCounterId) e.id = col[kCounterId].varint();
  }
  for (const auto &c : col)
    if (!c.ok() || !c.at_end()) return false;
  return true;
}

} // namespace prof::report
