// Columnar, delta-coded encoding of prof_event batches: the EVENTS payload.
//
//   varint count | varint column count | varint byte length of each column | columns
//
// Columns, in order (a field only for the event types that carry it; unknown
// types carry every field so nothing is lost):
//   type      u8 each
//   track     zigzag varint of the 32-bit wrapping delta from the previous event
//   ts        zigzag varint of the 64-bit wrapping delta from the previous event
//   duration  varint                                   (slices)
//   name      varint
//   category  varint
//   id        zigzag varint of the delta from the previous id (slices, samples, flows)
//   flags     u8                                       (flows)
//   value     8 raw bytes of the double, NaN bits kept (counters)
//   counter id varint of the id as is (counters; absent in the first format,
//             where counters read back with id 0)
// Deltas restart at zero in every payload. `reserved` is not stored (always 0).
// A reader ignores columns after the ones it knows.
#pragma once

#include <prof/event.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace prof::report {

inline constexpr size_t kEventColumnCount = 10;

/// Encodes events into reused column buffers; no allocation after construction.
class EventColumnEncoder {
public:
  /// Holds at most `capacity` events before clear().
  explicit EventColumnEncoder(size_t capacity);

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  size_t room() const { return capacity_ - size_; }

  /// Appends `count` events; count must not exceed room().
  void add(const prof_event *events, size_t count);

  /// The payload as 1 + kEventColumnCount pieces to write one after the other;
  /// valid until the next add() or clear().
  std::array<std::span<const uint8_t>, 1 + kEventColumnCount> payload_pieces();
  size_t payload_size();

  /// Appends the payload to `out` (for tests and tools).
  void append_payload(std::vector<uint8_t> &out);

  void clear();

private:
  struct Column {
    std::unique_ptr<uint8_t[]> data;
    uint8_t *end = nullptr;
    size_t size() const { return static_cast<size_t>(end - data.get()); }
  };
  size_t capacity_;
  size_t size_ = 0;
  std::array<Column, kEventColumnCount> columns_;
  std::array<uint8_t, (2 + kEventColumnCount) * 10> directory_{};
  uint32_t prev_track_ = 0;
  uint64_t prev_ts_ = 0;
  uint64_t prev_id_ = 0;
};

/// Number of events in an EVENTS payload without decoding it; false if unreadable.
bool peek_event_count(std::span<const uint8_t> payload, uint64_t &count);

/// Decodes an EVENTS payload into `out` (replacing its contents). Returns
/// false on any malformed input; `out` is then unspecified.
bool decode_event_columns(std::span<const uint8_t> payload, std::vector<prof_event> &out);

} // namespace prof::report
