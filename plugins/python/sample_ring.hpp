// A thread's samples between its signal handler (the only writer) and the
// plugin's worker (the only reader): fixed records, never blocking, a full
// ring drops the sample and counts it.
#ifndef PROF_PLUGINS_PYTHON_SAMPLE_RING_HPP
#define PROF_PLUGINS_PYTHON_SAMPLE_RING_HPP

#include "sample_record.hpp"

#include <atomic>
#include <cstddef>
#include <memory>

namespace prof::python {

class SampleRing {
public:
  /// `capacity`: a power of two.
  explicit SampleRing(std::size_t capacity)
      : records_(std::make_unique<SampleRecord[]>(capacity)), mask_(capacity - 1) {}

  /// The record to fill, or nullptr (counted) when the reader is behind.
  SampleRecord *claim() noexcept {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) > mask_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    return &records_[head & mask_];
  }
  void publish() noexcept {
    head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  /// Hands each published record to `each`, oldest first; returns how many.
  template <typename Each> std::size_t consume(Each &&each) {
    const uint64_t head = head_.load(std::memory_order_acquire);
    uint64_t tail = tail_.load(std::memory_order_relaxed);
    const std::size_t count = head - tail;
    for (; tail != head; ++tail) {
      each(records_[tail & mask_]);
      tail_.store(tail + 1, std::memory_order_release);
    }
    return count;
  }
  /// Samples dropped so far, taken: the next call counts from zero.
  uint64_t take_dropped() noexcept { return dropped_.exchange(0, std::memory_order_relaxed); }

private:
  std::unique_ptr<SampleRecord[]> records_;
  uint64_t mask_;
  std::atomic<uint64_t> head_{0};
  std::atomic<uint64_t> tail_{0};
  std::atomic<uint64_t> dropped_{0};
};

} // namespace prof::python

#endif
