// Columnar encoding of prof_event batches: the EVENTS payload. This is its
// third layout; readers still read the first (event_columns_layout1.hpp)
// and the second (the third but for the flags of slices, below).
//
//   varint count | 0 | varint layout (3) | varint start | varint column count
//   | varint byte length of each column | columns
//
// (The first layout has its column count, never 0, where this one has 0.)
// Columns, in order, each for the event types that carry the field
// (event_fields.hpp):
//   type      u8 each
//   track     zigzag varint of the 32-bit wrapping delta from the previous event
//   ts ref    u8 each: k when ts is the k-th latest time seen (below), else 0
//             (a writer may store 0 and a delta for a time it did not find)
//   ts        byte planes (byte_planes.hpp) of the zigzag 64-bit wrapping
//             delta from the previous event's end (from start, the first
//             event's ts, for the first event), for ts refs of 0
//   end ref   u8 each (slices): the same for end = ts + duration
//   duration  byte planes of the duration, for end refs of 0
//   name      varint
//   category  varint
//   id        zigzag varint of the delta from the previous id (slices, samples, flows)
//   flags     u8                                       (flows)
//   value     8 raw bytes of the double, NaN bits kept (counters)
//   counter id varint of the id as is                   (counters)
//   kind      byte planes of the well-known category    (slices, instants);
//             a slice's flags (PROF_SLICE_UNFINISHED) above it, << 16 (layout 3)
//   args      byte planes of the argument set id        (slices, instants)
// (byte planes cost one byte per payload when every value is 0)
// The last two came with plugin ABI 1.5; a payload of twelve columns, written
// before, reads with kind and args 0.
// Times seen: every event's ts, then a slice's end, enter a window of the
// last RecentTimes::kSize times. An event's end is ts + duration for slices
// and ts for the others. Deltas, times seen and ends restart in every payload.
// A reader ignores columns after the ones it knows.
#pragma once

#include "core/report/recent_times.hpp"

#include <prof/event.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace prof::report {

inline constexpr size_t kEventColumnCount = 14;
/// Columns of a layout-2 payload written before plugin ABI 1.5.
inline constexpr size_t kEventColumnCountBeforeArgs = 12;
/// The layout number this encoder writes.
inline constexpr uint64_t kEventLayout = 3;

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
    uint8_t *data = nullptr; ///< in arena_
    uint8_t *end = nullptr;
    size_t size() const { return static_cast<size_t>(end - data); }
  };
  /// Values bound for a byte-plane column.
  struct Values {
    uint64_t *data = nullptr; ///< in arena_
    uint64_t *end = nullptr;
    std::span<const uint64_t> span() const { return {data, static_cast<size_t>(end - data)}; }
  };
  size_t capacity_;
  /// Every column's room in one allocation, not fourteen: each of those was
  /// a mapping of its own, made, faulted in and unmapped in every capture.
  std::unique_ptr<uint8_t[]> arena_;
  size_t size_ = 0;
  std::array<Column, kEventColumnCount> columns_;
  Values ts_deltas_;
  Values durations_;
  Values kinds_;
  Values args_;
  std::array<uint8_t, (4 + kEventColumnCount) * 10> directory_{};
  RecentTimes recent_;
  uint64_t start_ = 0;
  uint32_t prev_track_ = 0;
  uint64_t prev_end_ = 0;
  uint64_t prev_id_ = 0;
};

/// Number of events in an EVENTS payload without decoding it; false if unreadable.
bool peek_event_count(std::span<const uint8_t> payload, uint64_t &count);

/// Decodes an EVENTS payload of either layout into `out` (replacing its
/// contents). Returns false on any malformed input; `out` is then unspecified.
bool decode_event_columns(std::span<const uint8_t> payload, std::vector<prof_event> &out);

} // namespace prof::report
