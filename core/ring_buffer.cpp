#include "core/ring_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace prof::core {

namespace {

uintptr_t page_bytes() {
  static const auto bytes = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

} // namespace

void RingBuffer::give_back_pages(uint64_t from, uint64_t to, PageGiveBack &state) const {
  const uint64_t capacity = mask_ + 1;
  if (to - from > capacity) from = to - capacity;
  const uintptr_t page = page_bytes();
  // The header's page stays: both sides keep writing it.
  const uintptr_t lowest =
      (reinterpret_cast<uintptr_t>(header_) + sizeof(RingHeader) + page - 1) & ~(page - 1);
  // One run up to the end of the slots, one from their start.
  while (from < to) {
    const uint64_t index = from & mask_;
    uint64_t run = capacity - index;
    if (run > to - from) run = to - from;
    uintptr_t begin = reinterpret_cast<uintptr_t>(slots_ + index);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(slots_ + index + run)) & ~(page - 1);
    begin = (begin + page - 1) & ~(page - 1);
    if (begin < lowest) begin = lowest;
    // What went back last time and was not written since.
    if (state.done_to > begin && state.done_to <= end) begin = state.done_to;
    if (begin < end && madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED) == 0)
      state.done_to = end;
    from += run;
  }
}

} // namespace prof::core
