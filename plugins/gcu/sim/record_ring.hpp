// A fixed-capacity FIFO of records: a device buffer or a host ring. Not
// locked; its owner serializes access. Readers take records in place
// (front_span) and release them afterwards (pop), so a writer may fill the
// free part while a reader hands the filled part to a callback.
#ifndef PROF_GCUSIM_RECORD_RING_HPP
#define PROF_GCUSIM_RECORD_RING_HPP

#include <prof/gcu_driver.h>

#include <cstddef>
#include <memory>
#include <span>

namespace prof::gcusim {

class RecordRing {
public:
  /// Room for `bytes` / 72 records; the memory is touched only as records arrive.
  explicit RecordRing(uint64_t bytes);

  size_t capacity() const noexcept { return capacity_; }
  size_t size() const noexcept { return size_; }
  size_t free_space() const noexcept { return capacity_ - size_; }
  uint64_t size_bytes() const noexcept { return size_ * sizeof(prof_gcu_record); }

  /// Appends a record; false when full.
  bool push(const prof_gcu_record &record) noexcept;
  /// The oldest records that lie contiguously, at most `limit` of them.
  std::span<const prof_gcu_record> front_span(size_t limit) const noexcept;
  /// Releases the `count` oldest records.
  void pop(size_t count) noexcept;

private:
  std::unique_ptr<prof_gcu_record[]> slots_;
  size_t capacity_;
  size_t head_ = 0; // oldest record
  size_t size_ = 0;
};

} // namespace prof::gcusim

#endif
