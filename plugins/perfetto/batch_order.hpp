// BatchOrder: puts one batch of prof events into the order their Perfetto
// packets are written.
//
// Why this order is enough. prof hands complete slices [ts, ts+duration);
// Perfetto wants SLICE_BEGIN/SLICE_END pairs, properly nested per track. The
// trace processor sorts every packet of a file by timestamp before parsing
// (src/trace_processor/sorter/trace_sorter.h: a trace without tracing-service
// flush events is extracted only at EOF, i.e. fully sorted) and breaks ties
// by the packets' order in the file (TimestampedEvent::operator< compares
// ts, then the token buffer position). Interned data and track descriptors
// are resolved earlier, in file order. So packets may be out of order across
// batches; what the file must get right is the order of packets with equal
// timestamps. Within a batch we therefore sort each timestamp's packets:
//   1. SLICE_END, innermost first (shorter slice first, and of two equal
//      slices the one that began last);
//   2. SLICE_BEGIN, outermost first (longer slice first);
//   3. zero-length slices, instants, counters, flows, samples, in arrival order.
// Memory stays bounded by the batch: nothing is kept across batches.
// Across batches, equal-timestamp ties fall back to file order, which is
// right whenever a producer's batches arrive in time order.
#ifndef PROF_PLUGINS_PERFETTO_BATCH_ORDER_HPP
#define PROF_PLUGINS_PERFETTO_BATCH_ORDER_HPP

#include <prof/event.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace prof::perfetto {

/// One packet to write: which event, and whether it is a slice's end.
struct OrderedPacket {
  uint32_t index; ///< into the batch
  bool end;       ///< a SLICE_END
};

/// Orders batches; keeps its scratch space between calls (no allocation
/// per event once it has seen the largest batch).
class BatchOrder {
public:
  /// Largest batch order() takes; consume() splits larger ones.
  static constexpr size_t kMaxBatch = 1u << 31;

  /// Orders `events` (count <= kMaxBatch); valid until the next call.
  const std::vector<OrderedPacket> &order(const prof_event *events, size_t count);

  // A sort key is one 128-bit integer: ts in the high half, then
  //   class (2 bits: END 0, BEGIN 1, other 2) | value (30 bits) | 32 bits
  // with value = duration for an END (shorter first) and kMaxValue - duration
  // for a BEGIN (longer first), and the low bits the batch index (inverted
  // for an END, so of two identical slices the later one ends first).
  // Durations of 2^30 ns (~1.07 s) or more saturate the value; a batch with
  // such slices is sorted with an exact comparator instead.
  static constexpr uint64_t kMaxValue = (1u << 30) - 1;

private:
  using Key = unsigned __int128;
  static constexpr uint64_t kEnd = 0, kBegin = 1ull << 62, kOther = 2ull << 62;

  static bool exact_less(const prof_event *events, Key a, Key b);

  std::vector<Key> keys_;
  std::vector<OrderedPacket> packets_;
};

inline const std::vector<OrderedPacket> &BatchOrder::order(const prof_event *events, size_t count) {
  keys_.resize(2 * count);
  Key *key = keys_.data();
  bool saturated = false;
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    const uint64_t index = i;
    if (e.type == PROF_EVENT_SLICE && e.duration > 0) {
      const uint64_t value = e.duration < kMaxValue ? e.duration : kMaxValue;
      saturated |= value == kMaxValue;
      *key++ = (Key{e.ts} << 64) | (kBegin | (kMaxValue - value) << 32 | index);
      *key++ = (Key{e.ts + e.duration} << 64) | (kEnd | value << 32 | (0xffffffffu - index));
    } else {
      *key++ = (Key{e.ts} << 64) | (kOther | index);
    }
  }
  keys_.resize(static_cast<size_t>(key - keys_.data()));
  if (!saturated)
    std::sort(keys_.begin(), keys_.end());
  else
    std::sort(keys_.begin(), keys_.end(),
              [events](Key a, Key b) { return exact_less(events, a, b); });

  packets_.resize(keys_.size());
  OrderedPacket *out = packets_.data();
  for (const Key k : keys_) {
    const auto low = static_cast<uint64_t>(k);
    const bool end = (low >> 62) == 0;
    const auto bits = static_cast<uint32_t>(low);
    *out++ = {end ? 0xffffffffu - bits : bits, end};
  }
  return packets_;
}

inline bool BatchOrder::exact_less(const prof_event *events, Key a, Key b) {
  const auto ts_a = static_cast<uint64_t>(a >> 64), ts_b = static_cast<uint64_t>(b >> 64);
  if (ts_a != ts_b) return ts_a < ts_b;
  const auto la = static_cast<uint64_t>(a), lb = static_cast<uint64_t>(b);
  const uint64_t class_a = la >> 62, class_b = lb >> 62;
  if (class_a != class_b || class_a == 2) return la < lb;
  // Two ENDs or two BEGINs at one time: compare the real durations.
  const bool end = class_a == 0;
  const uint32_t ia = end ? 0xffffffffu - static_cast<uint32_t>(la) : static_cast<uint32_t>(la);
  const uint32_t ib = end ? 0xffffffffu - static_cast<uint32_t>(lb) : static_cast<uint32_t>(lb);
  const uint64_t da = events[ia].duration, db = events[ib].duration;
  if (da != db) return end ? da < db : da > db;
  return end ? ia > ib : ia < ib;
}

} // namespace prof::perfetto

#endif
