// A vector whose elements never move as it grows and that readers may index
// while one writer appends: the catalog's tables. Segments of doubling size,
// allocated as it grows. Written here rather than taken from TBB
// (concurrent_vector) so that a capture's start does not load libtbb.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <memory>
#include <utility>

namespace prof::core {

/// Appends by one thread at a time (the caller's lock); reads of any index
/// below a size() the reader has seen, from any thread, without a lock.
template <typename T> class StableVector {
public:
  StableVector() = default;
  StableVector(const StableVector &) = delete;
  StableVector &operator=(const StableVector &) = delete;
  ~StableVector() {
    const size_t count = size_.load(std::memory_order_relaxed);
    for (size_t i = 0; i < count; ++i)
      std::destroy_at(&(*this)[i]);
    for (size_t s = 0; s < kSegments; ++s)
      if (T *segment = segments_[s].load(std::memory_order_relaxed))
        std::allocator<T>().deallocate(segment, segment_size(s));
  }

  /// Elements appended so far.
  size_t size() const { return size_.load(std::memory_order_acquire); }

  T &operator[](size_t index) {
    const auto [segment, offset] = locate(index);
    return segments_[segment].load(std::memory_order_acquire)[offset];
  }
  const T &operator[](size_t index) const {
    const auto [segment, offset] = locate(index);
    return segments_[segment].load(std::memory_order_acquire)[offset];
  }

  /// Appends an element made from `args`; the reference stays valid.
  template <typename... Args> T &emplace_back(Args &&...args) {
    const size_t index = size_.load(std::memory_order_relaxed);
    const auto [segment, offset] = locate(index);
    T *items = segments_[segment].load(std::memory_order_relaxed);
    if (items == nullptr) {
      items = std::allocator<T>().allocate(segment_size(segment));
      segments_[segment].store(items, std::memory_order_release);
    }
    T *item = std::construct_at(items + offset, std::forward<Args>(args)...);
    size_.store(index + 1, std::memory_order_release);
    return *item;
  }
  T &push_back(T value) { return emplace_back(std::move(value)); }

private:
  // Segment s holds kFirst << s elements, from kFirst * (2^s - 1) on: 48
  // segments hold more elements than memory can.
  static constexpr size_t kFirst = 16;
  static constexpr size_t kSegments = 48;

  static constexpr size_t segment_size(size_t segment) { return kFirst << segment; }
  static std::pair<size_t, size_t> locate(size_t index) {
    const size_t segment = std::bit_width(index / kFirst + 1) - 1;
    return {segment, index - kFirst * ((size_t{1} << segment) - 1)};
  }

  std::array<std::atomic<T *>, kSegments> segments_{};
  std::atomic<size_t> size_{0};
};

} // namespace prof::core
