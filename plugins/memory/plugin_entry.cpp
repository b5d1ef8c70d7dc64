// ABI glue of the memory source: option table, vtable and entry symbol.
// Reading the descriptor has no side effects (the hooks only count).
#include "memory_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "heap, mapping and RSS counter samples per second"},
    {"stack-sample-bytes", PROF_OPTION_INT, "524288", 0, 1099511627776LL, nullptr,
     "bytes allocated between call stacks taken, on average (a sample by bytes; 1: every "
     "allocation, 0: call sites only)"},
    {"profile", PROF_OPTION_ENUM, "summary", 0, 0, "summary,events",
     "summary: counters and the summary at exit; events: also every allocation and free as a "
     "memory instant on its thread (--memory-profile events)"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::memory::MemorySource>(
    "memory", "1.0.0",
    "every heap allocation of the process (malloc family, operator new and delete, anonymous "
    "mmap): heap in use and RSS as counters, the peak and its call sites and sampled call "
    "stacks (with Python frames), leaks by call site and stack, allocations by size",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
