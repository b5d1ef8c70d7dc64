#include "record_ring.hpp"

#include <algorithm>

namespace prof::gcusim {

RecordRing::RecordRing(uint64_t bytes)
    : slots_(new prof_gcu_record[bytes / sizeof(prof_gcu_record)]),
      capacity_(bytes / sizeof(prof_gcu_record)) {}

bool RecordRing::push(const prof_gcu_record &record) noexcept {
  if (size_ == capacity_) return false;
  size_t tail = head_ + size_;
  if (tail >= capacity_) tail -= capacity_;
  slots_[tail] = record;
  ++size_;
  return true;
}

std::span<const prof_gcu_record> RecordRing::front_span(size_t limit) const noexcept {
  size_t contiguous = std::min(size_, capacity_ - head_);
  return {slots_.get() + head_, std::min(contiguous, limit)};
}

void RecordRing::pop(size_t count) noexcept {
  count = std::min(count, size_);
  head_ += count;
  if (head_ >= capacity_) head_ -= capacity_;
  size_ -= count;
  if (size_ == 0) head_ = 0;
}

} // namespace prof::gcusim
