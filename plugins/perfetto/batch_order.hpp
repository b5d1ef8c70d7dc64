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
//
// How. Packets are sorted by timestamp alone with an LSD radix sort, which is
// stable, so equal timestamps keep arrival order; then each run of equal
// timestamps (usually one packet) is put in the order above by a comparison
// sort. A batch already in order skips the radix sort.
#ifndef PROF_PLUGINS_PERFETTO_BATCH_ORDER_HPP
#define PROF_PLUGINS_PERFETTO_BATCH_ORDER_HPP

#include <prof/event.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace prof::perfetto {

/// Orders batches; keeps its scratch space between calls (no allocation
/// per event once it has seen the largest batch).
class BatchOrder {
public:
  /// Largest batch order() takes; consume() splits larger ones.
  static constexpr size_t kMaxBatch = 1u << 30;

  /// Orders the packets of `events` (count <= kMaxBatch). Returns one key per
  /// packet, in writing order, valid until the next call; event() and end()
  /// read them.
  std::span<const uint64_t> order(const prof_event *events, size_t count);

  /// Index in the batch of the event a packet key stands for.
  uint32_t event(uint64_t key) const { return static_cast<uint32_t>((key & packet_mask_) >> 1); }
  /// Whether the packet is its slice's SLICE_END.
  static bool end(uint64_t key) { return (key & 1) != 0; }

private:
  static constexpr unsigned kMaxDigitBits = 12;

  void radix_sort(unsigned shift, unsigned digit_bits, unsigned passes);
  void order_ties(const prof_event *events, uint64_t *first, uint64_t *last) const;

  // A key: (timestamp - batch minimum) above the packet number, which is the
  // event's index times two, plus one for a SLICE_END. When a batch spans too
  // much time for that, the key is the packet number alone.
  std::vector<uint64_t> keys_, scratch_;
  std::vector<uint32_t> counts_; // radix histograms
  uint64_t packet_mask_ = 0;
};

} // namespace prof::perfetto

#endif
