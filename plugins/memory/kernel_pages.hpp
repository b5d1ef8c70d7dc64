// Memory for the memory source's own tables, straight from the kernel: the
// C library's mmap may be interposed (by this plugin's hooks, among others),
// and the tables are filled from inside malloc, so they never use either.
#ifndef PROF_PLUGINS_MEMORY_KERNEL_PAGES_HPP
#define PROF_PLUGINS_MEMORY_KERNEL_PAGES_HPP

#include <cstddef>

namespace prof::memory {

/// `bytes` of zeroed, private, anonymous memory, or nullptr. `reserve_only`:
/// no swap is reserved (MAP_NORESERVE), for a table mostly left untouched.
void *map_kernel_pages(size_t bytes, bool reserve_only = false) noexcept;
void unmap_kernel_pages(void *address, size_t bytes) noexcept;

} // namespace prof::memory

#endif
