// The buffers CUPTI fills with activity records: a fixed size each (the
// watermark: CUPTI hands a buffer back when it is full, or at a flush), at
// most a budget of them outstanding (the host ring size). A request past the
// budget gets no buffer, so CUPTI drops records and counts them, as a full
// ring drops events; the report states both counts.
#ifndef PROF_PLUGINS_CUDA_ACTIVITY_BUFFERS_HPP
#define PROF_PLUGINS_CUDA_ACTIVITY_BUFFERS_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace prof::cuda {

class ActivityBuffers {
public:
  /// CUPTI requires buffers aligned to 8 bytes.
  static constexpr size_t kAlignment = 8;

  ActivityBuffers(size_t buffer_bytes, size_t budget_bytes)
      : buffer_bytes_(buffer_bytes), budget_bytes_(budget_bytes) {}

  /// A fresh buffer and its size, or nullptr (size 0) when the budget is spent.
  uint8_t *take(size_t &size);
  /// Returns a buffer from take().
  void give_back(uint8_t *buffer);

  /// Records CUPTI delivered, and those it reported dropped.
  void count_records(uint64_t records) { records_ += records; }
  void count_dropped(uint64_t dropped) { dropped_ += dropped; }

  uint64_t records() const { return records_; }
  uint64_t dropped() const { return dropped_; }
  /// Requests refused because the budget was spent.
  uint64_t refused() const { return refused_; }
  size_t outstanding_bytes() const { return outstanding_; }

private:
  const size_t buffer_bytes_;
  const size_t budget_bytes_;
  std::atomic<size_t> outstanding_{0};
  std::atomic<uint64_t> records_{0}, dropped_{0}, refused_{0};
};

} // namespace prof::cuda

#endif
