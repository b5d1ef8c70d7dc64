// ABI glue of the memory source: descriptor (its option table is in the header) and entry symbol.
// Reading the descriptor has no side effects (the hooks only count).
#include "memory_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::memory::MemorySource>(
    "memory", "1.0.0",
    "every heap allocation of the process (malloc family, operator new and delete, anonymous "
    "mmap): heap in use and RSS as counters, the peak and its call sites and sampled call "
    "stacks (with Python frames), leaks by call site and stack, allocations by size",
    PROF_SCOPE_PROCESS, prof::memory::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
