#include "core/runtime/ring_buffer.hpp"

#include "core/runtime/layout_page.hpp"
#include "core/runtime/page_give_back.hpp"

namespace prof::core {

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
    uintptr_t end = reinterpret_cast<uintptr_t>(slots_ + index + run);
    // Rings are laid out a layout page apart at least: past the last slot,
    // to the next one, is this ring's own (whatever the system's page size).
    if (index + run == capacity) end = static_cast<uintptr_t>(layout_page_round(end));
    if (begin < lowest) begin = lowest;
    from += run;
    // Nothing read to the end of a page since last time: nothing to do.
    // Otherwise the whole range goes again, not only what is new: a read
    // fault on shared memory maps its neighbours back (fault-around).
    if (state.done_to > begin && state.done_to <= end && (end & ~(page - 1)) <= state.done_to)
      continue;
    if (const uintptr_t given_back = give_back_whole_pages(begin, end)) state.done_to = given_back;
  }
}

} // namespace prof::core
