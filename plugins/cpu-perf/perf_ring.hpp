// One mmap'ed perf_event ring buffer (1 metadata page + 2^n data pages):
// drain() copies the records written since the last drain.
#ifndef PROF_PLUGINS_CPU_PERF_PERF_RING_HPP
#define PROF_PLUGINS_CPU_PERF_PERF_RING_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace prof::cpu_perf {

class PerfRing {
public:
  PerfRing() = default;
  ~PerfRing();
  PerfRing(const PerfRing &) = delete;
  PerfRing &operator=(const PerfRing &) = delete;

  /// Maps the ring of `fd` with `data_pages` (a power of two) data pages.
  /// Returns false with `error` set.
  bool map(int fd, size_t data_pages, std::string &error);
  /// Appends the bytes written since the last drain to `out`; returns how many.
  size_t drain(std::vector<uint8_t> &out);
  /// Bytes of the data area.
  size_t data_size() const { return data_size_; }
  bool mapped() const { return base_ != nullptr; }

private:
  void *base_ = nullptr;
  size_t length_ = 0;
  size_t data_size_ = 0;
  size_t page_ = 0;
};

} // namespace prof::cpu_perf

#endif
