#include <prof/stacks/return_addresses.hpp>

#include <unwind.h>

namespace prof::stacks {
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

} // namespace prof::stacks
