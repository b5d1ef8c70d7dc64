#include "perf_ring.hpp"

#include <linux/perf_event.h>

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace prof::cpu_perf {

PerfRing::~PerfRing() {
  if (base_ != nullptr) munmap(base_, length_);
}

bool PerfRing::map(int fd, size_t data_pages, std::string &error) {
  page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  length_ = (1 + data_pages) * page_;
  void *p = mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    error = std::strerror(errno);
    return false;
  }
  base_ = p;
  data_size_ = data_pages * page_;
  return true;
}

size_t PerfRing::drain(std::vector<uint8_t> &out) {
  if (base_ == nullptr) return 0;
  auto *meta = static_cast<perf_event_mmap_page *>(base_);
  const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  const uint64_t tail = meta->data_tail;
  if (head == tail) return 0;
  const auto *data = static_cast<const uint8_t *>(base_) + page_;
  const size_t n = static_cast<size_t>(head - tail);
  const size_t from = static_cast<size_t>(tail % data_size_);
  const size_t first = std::min(n, data_size_ - from);
  out.insert(out.end(), data + from, data + from + first);
  out.insert(out.end(), data, data + (n - first));
  __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
  return n;
}

} // namespace prof::cpu_perf
