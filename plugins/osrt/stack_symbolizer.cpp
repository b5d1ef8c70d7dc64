#include "stack_symbolizer.hpp"

#include <prof/stacks/address_name.hpp>

#include <unwind.h>

#include <mutex>

namespace prof::osrt {
namespace {

struct UnwindBuffer {
  uintptr_t *addresses;
  int capacity;
  int count;
};

_Unwind_Reason_Code collect_frame(_Unwind_Context *context, void *arg) {
  auto *buffer = static_cast<UnwindBuffer *>(arg);
  const uintptr_t ip = _Unwind_GetIP(context);
  if (ip == 0) return _URC_END_OF_STACK;
  buffer->addresses[buffer->count++] = ip;
  return buffer->count == buffer->capacity ? _URC_END_OF_STACK : _URC_NO_REASON;
}

} // namespace

int capture_return_addresses(uintptr_t *addresses, int capacity) noexcept {
  if (capacity <= 0) return 0;
  UnwindBuffer buffer{addresses, capacity, 0};
  _Unwind_Backtrace(&collect_frame, &buffer);
  return buffer.count;
}

prof_string_id StackSymbolizer::frame(uintptr_t address) {
  const std::size_t home = (address >> 2) * 0x9E3779B97F4A7C15ull >> 52 & (kCapacity - 1);
  {
    std::lock_guard guard(lock_);
    for (std::size_t probe = 0; probe < 16; ++probe) {
      const Entry &entry = entries_[(home + probe) & (kCapacity - 1)];
      if (entry.address == address) return entry.name;
      if (entry.address == 0) break;
    }
  }
  // Symbolize outside the lock: dladdr and demangling are slow.
  const prof_string_id name = host_.intern(stacks::describe_address(address));
  std::lock_guard guard(lock_);
  for (std::size_t probe = 0; probe < 16; ++probe) {
    Entry &entry = entries_[(home + probe) & (kCapacity - 1)];
    if (entry.address == 0 || entry.address == address) {
      entry = Entry{address, name};
      break;
    }
  }
  return name; // a full neighbourhood just goes uncached
}

} // namespace prof::osrt
