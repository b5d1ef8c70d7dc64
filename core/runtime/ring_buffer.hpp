// A single-producer single-consumer ring of prof_event records laid out in
// one block of memory (header, then slots), so the same layout can live in
// shared memory. The producer never blocks, allocates or locks: a full ring
// drops the event and counts it.
#pragma once

#include "core/runtime/event_args_record.hpp"

#include <prof/event.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace prof::core {

/// Control block at the start of a ring's memory. Producer and consumer
/// fields sit on separate cache lines so they do not bounce.
struct RingHeader {
  // Producer's line.
  alignas(64) std::atomic<uint64_t> head{0}; ///< next slot to write
  uint64_t cached_tail{0};                   ///< producer's copy of tail
  std::atomic<uint64_t> dropped{0};          ///< events refused because full
  std::atomic<int32_t> owner_tid{0};         ///< thread that owns the ring
  // Consumer's line.
  alignas(64) std::atomic<uint64_t> tail{0}; ///< next slot to read
  uint64_t capacity{0};                      ///< slots, a power of two
};

/// A consumer's account of the ring memory it gave back to the kernel.
struct PageGiveBack {
  /// Positions before the read position given back again with each page
  /// read. Slots given back in private memory read as zeros, so there it is
  /// at most what producers keep free (RingBuffer::attach's `reserve`).
  /// Shared memory keeps its contents when a mapping gives pages back, so
  /// any value is safe there; reading a page maps back its neighbours
  /// (fault-around), and a value covering that window gives them back too.
  uint64_t behind = 0;
  uintptr_t done_to = 0; ///< end of the last range given back
};

/// View over a ring's memory; does not own it.
class RingBuffer {
public:
  /// Bytes needed for a ring of `capacity` slots (a power of two).
  static size_t bytes_for(uint64_t capacity) {
    return sizeof(RingHeader) + capacity * sizeof(prof_event);
  }
  /// Largest power of two not above `n` (at least 2).
  static uint64_t capacity_for(uint64_t n) {
    uint64_t c = 2;
    while (c * 2 <= n)
      c *= 2;
    return c;
  }

  RingBuffer() = default;
  /// Formats `memory` (bytes_for(capacity) bytes, 64-byte aligned) as an empty ring.
  static RingBuffer format(void *memory, uint64_t capacity) {
    auto *header = new (memory) RingHeader();
    header->capacity = capacity;
    return RingBuffer(memory);
  }
  /// Attaches to a ring formatted earlier (possibly by another process).
  explicit RingBuffer(void *memory)
      : header_(static_cast<RingHeader *>(memory)),
        slots_(reinterpret_cast<prof_event *>(static_cast<char *>(memory) + sizeof(RingHeader))),
        mask_(header_->capacity - 1), limit_(header_->capacity) {}

  /// Attaches to a ring that holds `capacity` slots by prof's own account,
  /// whatever its header (in memory an application can write) says. A
  /// producer attached with `reserve` leaves that many slots free behind the
  /// consumer, which may then give their pages back (PageGiveBack::behind).
  static RingBuffer attach(void *memory, uint64_t capacity, uint64_t reserve = 0) {
    RingBuffer ring(memory);
    ring.mask_ = capacity - 1;
    ring.limit_ = capacity - reserve;
    return ring;
  }
  /// Consumer: whether the positions make sense (no more waiting than the
  /// ring holds). A ring overwritten by a wild pointer may say otherwise.
  bool intact() const {
    return header_->head.load(std::memory_order_acquire) -
               header_->tail.load(std::memory_order_relaxed) <=
           mask_ + 1;
  }

  /// Producer: appends `event`, or drops and counts it when the ring is full.
  bool push(const prof_event &event) {
    RingHeader &h = *header_;
    const uint64_t head = h.head.load(std::memory_order_relaxed);
    if (head - h.cached_tail >= limit_) {
      h.cached_tail = h.tail.load(std::memory_order_acquire);
      if (head - h.cached_tail >= limit_) {
        h.dropped.store(h.dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return false;
      }
    }
    std::memcpy(&slots_[head & mask_], &event, sizeof(prof_event));
    h.head.store(head + 1, std::memory_order_release);
    return true;
  }

  /// Producer: appends the `count` records of one event (the event, then its
  /// arguments records) all or none: the event and its records count as one
  /// drop when the ring cannot take them all.
  bool push_group(const prof_event *records, uint32_t count) {
    RingHeader &h = *header_;
    const uint64_t head = h.head.load(std::memory_order_relaxed);
    if (head + count - h.cached_tail > limit_) {
      h.cached_tail = h.tail.load(std::memory_order_acquire);
      if (head + count - h.cached_tail > limit_) {
        h.dropped.store(h.dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return false;
      }
    }
    for (uint32_t i = 0; i < count; ++i)
      std::memcpy(&slots_[(head + i) & mask_], &records[i], sizeof(prof_event));
    h.head.store(head + count, std::memory_order_release);
    return true;
  }

  /// Consumer: copies up to `max` events into `out`; returns how many. An
  /// event and the arguments records after it always come out together, so
  /// `max` must be at least kMaxRecordsPerEvent. With `give_back`, the pages
  /// holding only slots read now or up to give_back->behind before them are
  /// returned to the kernel before the producer may write them again.
  size_t pop(prof_event *out, size_t max, PageGiveBack *give_back = nullptr) {
    RingHeader &h = *header_;
    const uint64_t tail = h.tail.load(std::memory_order_relaxed);
    const uint64_t head = h.head.load(std::memory_order_acquire);
    uint64_t n = head - tail;
    if (n > max) {
      n = max;
      // Never end between an event and its arguments (head moves past a
      // whole group at once, so only a cut by `max` can split one).
      while (n > 0 && slots_[(tail + n) & mask_].type == kArgsRecord)
        --n;
    }
    for (uint64_t i = 0; i < n;) {
      // Copy in at most two runs: up to the end of the slots, then from the start.
      uint64_t at = (tail + i) & mask_;
      uint64_t run = mask_ + 1 - at;
      if (run > n - i) run = n - i;
      std::memcpy(out + i, &slots_[at], run * sizeof(prof_event));
      i += run;
    }
    if (give_back && n > 0)
      give_back_pages(tail > give_back->behind ? tail - give_back->behind : 0, tail + n,
                      *give_back);
    h.tail.store(tail + n, std::memory_order_release);
    return n;
  }

  /// Events waiting to be read (consumer side estimate).
  uint64_t size() const {
    return header_->head.load(std::memory_order_acquire) -
           header_->tail.load(std::memory_order_relaxed);
  }
  uint64_t capacity() const { return mask_ + 1; }
  uint64_t dropped() const { return header_->dropped.load(std::memory_order_relaxed); }
  RingHeader *header() const { return header_; }
  explicit operator bool() const { return header_ != nullptr; }

private:
  /// Gives back the pages wholly inside the slots of positions [from, to)
  /// (at most a ring's worth), never the header's; skips what `state` says
  /// went back last time.
  void give_back_pages(uint64_t from, uint64_t to, PageGiveBack &state) const;

  RingHeader *header_ = nullptr;
  prof_event *slots_ = nullptr;
  uint64_t mask_ = 0;
  uint64_t limit_ = 0; ///< events the producer lets wait at most
};

} // namespace prof::core
