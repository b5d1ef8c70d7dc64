#include "kernel_pages.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::memory {

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer follows memory through the C library's mmap and munmap
// only (a range unmapped by system call and mapped again elsewhere looks
// like a race to it); its build is the unit tests', with no hooks to avoid.
void *map_kernel_pages(size_t bytes, bool reserve_only) noexcept {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | (reserve_only ? MAP_NORESERVE : 0), -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void unmap_kernel_pages(void *address, size_t bytes) noexcept { munmap(address, bytes); }
#else
void *map_kernel_pages(size_t bytes, bool reserve_only) noexcept {
  const long address =
      syscall(SYS_mmap, nullptr, bytes, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | (reserve_only ? MAP_NORESERVE : 0), -1, 0);
  return address < 0 && address > -4096 ? nullptr : reinterpret_cast<void *>(address);
}

void unmap_kernel_pages(void *address, size_t bytes) noexcept {
  syscall(SYS_munmap, address, bytes);
}
#endif

} // namespace prof::memory
