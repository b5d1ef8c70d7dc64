// The allocation functions this plugin defines (allocator_hooks.cpp):
// preloaded, they come before the C library's and libstdc++'s, account every
// block in the process's heap table, and call the next definition (the C
// library's, or an allocator preloaded after prof's).
#ifndef PROF_PLUGINS_MEMORY_ALLOCATOR_HOOKS_HPP
#define PROF_PLUGINS_MEMORY_ALLOCATOR_HOOKS_HPP

#include "heap_table.hpp"

#include <string>

namespace prof::memory {

/// The process's heap table, which the hooks fill from the first allocation
/// on (before main, before the plugin starts).
HeapTable &process_heap();

/// Bytes of anonymous memory the program mapped with mmap and has not
/// unmapped (the allocator's own mappings are not counted).
int64_t mapped_bytes();

/// "" when the hooks see the program's allocations, else why not (the
/// program defines malloc itself, as a statically linked jemalloc does).
std::string hooks_problem();

/// The calling thread's allocations are not accounted from now on (prof's
/// own threads in the process).
void ignore_calling_thread();

/// While it lives, the calling thread's allocations are not accounted:
/// prof's own work on an application thread (the summary at exit), and any
/// allocation made while the heap table's locks are held.
class NotAccounted {
public:
  NotAccounted();
  ~NotAccounted();
  NotAccounted(const NotAccounted &) = delete;
  NotAccounted &operator=(const NotAccounted &) = delete;

private:
  bool was_;
};

} // namespace prof::memory

#endif
