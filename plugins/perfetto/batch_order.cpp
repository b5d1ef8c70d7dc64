#include "batch_order.hpp"

#include <algorithm>
#include <bit>

namespace prof::perfetto {

namespace {

/// A slice that becomes a BEGIN/END pair; other events are one packet.
bool has_end(const prof_event &e) { return e.type == PROF_EVENT_SLICE && e.duration > 0; }

/// Timestamp of packet number `packet` (wraps like the END packet's timestamp).
uint64_t packet_ts(const prof_event *events, uint64_t packet) {
  const prof_event &e = events[packet >> 1];
  return (packet & 1) != 0 ? e.ts + e.duration : e.ts;
}

} // namespace

std::span<const uint64_t> BatchOrder::order(const prof_event *events, size_t count) {
  if (count == 0) return {};
  uint64_t low = UINT64_MAX, high = 0;
  size_t packets = 0;
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    const uint64_t last = has_end(e) ? e.ts + e.duration : e.ts;
    low = std::min({low, e.ts, last});
    high = std::max({high, e.ts, last});
    packets += has_end(e) ? 2 : 1;
  }
  const unsigned packet_bits = std::bit_width(2 * count - 1);
  const unsigned ts_bits = std::bit_width(high - low);
  const bool packed = packet_bits + ts_bits <= 64;
  packet_mask_ = packed ? (uint64_t{1} << packet_bits) - 1 : UINT64_MAX;

  // Radix digits of the timestamp part, as few as kMaxDigitBits allows.
  const unsigned passes = packed ? (ts_bits + kMaxDigitBits - 1) / kMaxDigitBits : 0;
  const unsigned digit_bits = passes > 0 ? (ts_bits + passes - 1) / passes : 0;
  const size_t buckets = size_t{1} << digit_bits;
  counts_.assign(passes * buckets, 0);
  keys_.resize(packets);
  uint64_t *key = keys_.data();
  bool sorted = true;
  uint64_t previous = 0;
  const auto add = [&](uint64_t ts, uint64_t packet) {
    const uint64_t k = packed ? (ts - low) << packet_bits | packet : packet;
    if (passes > 0) ++counts_[(k >> packet_bits) & (buckets - 1)];
    sorted &= previous <= k;
    previous = k;
    *key++ = k;
  };
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    add(e.ts, 2 * uint64_t{i});
    if (has_end(e)) add(e.ts + e.duration, 2 * uint64_t{i} + 1);
  }
  if (packed) {
    if (!sorted) radix_sort(packet_bits, digit_bits, passes);
  } else { // the batch spans more time than a packed key holds: rare, compare
    std::sort(keys_.begin(), keys_.end(), [events](uint64_t a, uint64_t b) {
      const uint64_t ta = packet_ts(events, a), tb = packet_ts(events, b);
      return ta != tb ? ta < tb : a < b;
    });
  }

  // Runs of equal timestamps (usually one packet) get the order of ties.
  uint64_t *const first = keys_.data();
  size_t run = 0;
  for (size_t j = 1; j <= packets; ++j) {
    if (j < packets && (packed ? (first[j] >> packet_bits) == (first[j - 1] >> packet_bits)
                               : packet_ts(events, first[j]) == packet_ts(events, first[j - 1])))
      continue;
    if (j - run > 1) order_ties(events, first + run, first + j);
    run = j;
  }
  return keys_;
}

void BatchOrder::radix_sort(unsigned shift, unsigned digit_bits, unsigned passes) {
  // counts_ holds the first digit's histogram; each pass counts the next
  // digit while it moves the keys.
  const size_t n = keys_.size(), buckets = size_t{1} << digit_bits;
  const uint64_t mask = buckets - 1;
  scratch_.resize(n);
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned digit = shift + p * digit_bits;
    uint32_t *count = &counts_[p * buckets];
    uint32_t *next = p + 1 < passes ? count + buckets : nullptr;
    if (count[(keys_[0] >> digit) & mask] == n) { // one value: nothing moves
      if (next != nullptr)
        for (const uint64_t k : keys_)
          ++next[(k >> (digit + digit_bits)) & mask];
      continue;
    }
    uint32_t sum = 0;
    for (size_t b = 0; b < buckets; ++b) {
      const uint32_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    uint64_t *out = scratch_.data();
    if (next != nullptr) {
      for (const uint64_t k : keys_) {
        out[count[(k >> digit) & mask]++] = k;
        ++next[(k >> (digit + digit_bits)) & mask];
      }
    } else {
      for (const uint64_t k : keys_)
        out[count[(k >> digit) & mask]++] = k;
    }
    keys_.swap(scratch_);
  }
}

void BatchOrder::order_ties(const prof_event *events, uint64_t *first, uint64_t *last) const {
  // Class: END 0, BEGIN 1, anything else 2.
  const auto rank = [&](uint64_t k) { return end(k) ? 0 : has_end(events[event(k)]) ? 1 : 2; };
  std::sort(first, last, [&](uint64_t a, uint64_t b) {
    const int ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb;
    const uint32_t ia = event(a), ib = event(b);
    if (ra == 2) return ia < ib;
    const uint64_t da = events[ia].duration, db = events[ib].duration;
    if (da != db) return ra == 0 ? da < db : da > db; // ENDs innermost, BEGINs outermost first
    return ra == 0 ? ia > ib : ia < ib;
  });
}

} // namespace prof::perfetto
