#include "core/runtime/page_give_back.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace prof::core {

uintptr_t page_bytes() {
  static const auto bytes = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

uintptr_t give_back_whole_pages(uintptr_t begin, uintptr_t end) {
  const uintptr_t page = page_bytes();
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (begin >= end || madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED) != 0)
    return 0;
  return end;
}

} // namespace prof::core
