// Whether this process has a page mapped in (its own RSS), from
// /proc/self/pagemap: mincore() says whether a shared file's page exists
// anywhere, not whether this mapping holds it.
#pragma once

#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

namespace prof::testing {

inline bool page_mapped(const void *address) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  uint64_t entry = 0;
  const auto at = static_cast<off_t>(reinterpret_cast<uintptr_t>(address) / page * sizeof entry);
  const bool read_whole = fd >= 0 && pread(fd, &entry, sizeof entry, at) == sizeof entry;
  if (fd >= 0) close(fd);
  return read_whole && (entry >> 63) != 0; // bit 63: present in RAM
}

} // namespace prof::testing
