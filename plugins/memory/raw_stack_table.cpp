#include "raw_stack_table.hpp"

#include "kernel_pages.hpp"

#include <mutex>

namespace prof::memory {
namespace {

uint64_t mix(uint64_t h, uint64_t value) noexcept {
  h ^= value + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

} // namespace

uint64_t RawStackTable::hash(const RawStack &stack) noexcept {
  uint64_t h = mix(stack.native_count, stack.python_count);
  for (int i = 0; i < stack.native_count; ++i)
    h = mix(h, stack.native[i]);
  for (int i = 0; i < stack.python_count; ++i) {
    const python::PythonFrameRef &f = stack.python[i];
    h = mix(h, f.code ^ (uint64_t{static_cast<uint32_t>(f.instruction)} << 32));
  }
  return h * 0x9E3779B97F4A7C15ull;
}

bool RawStackTable::same(const RawStack &a, const RawStack &b) noexcept {
  if (a.native_count != b.native_count || a.python_count != b.python_count) return false;
  for (int i = 0; i < a.native_count; ++i)
    if (a.native[i] != b.native[i]) return false;
  for (int i = 0; i < a.python_count; ++i) {
    const python::PythonFrameRef &x = a.python[i], &y = b.python[i];
    if (x.code != y.code || x.qualname != y.qualname || x.first_line != y.first_line ||
        x.instruction != y.instruction || x.last_of_group != y.last_of_group)
      return false;
  }
  return true;
}

uint32_t RawStackTable::intern(const RawStack &stack) noexcept {
  const uint64_t h = hash(stack);
  std::lock_guard guard(lock_);
  if (entries_ == nullptr && !unmapped_) {
    entries_ = static_cast<RawStack *>(map_kernel_pages(sizeof(RawStack) * kCapacity, true));
    slots_ = static_cast<uint32_t *>(map_kernel_pages(sizeof(uint32_t) * kSlots, true));
    if (entries_ == nullptr || slots_ == nullptr) { // refused from now on
      unmapped_ = true;
      slots_ = nullptr;
    }
  }
  const uint32_t size = size_.load(std::memory_order_relaxed);
  if (slots_ != nullptr) {
    for (uint32_t at = static_cast<uint32_t>(h >> 40) & (kSlots - 1);;
         at = (at + 1) & (kSlots - 1)) {
      const uint32_t id = slots_[at];
      if (id == 0) {
        if (size == kCapacity) break;
        entries_[size] = stack;
        slots_[at] = size + 1;
        size_.store(size + 1, std::memory_order_release);
        return size + 1;
      }
      if (same(entries_[id - 1], stack)) return id;
    }
  }
  refused_.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

} // namespace prof::memory
