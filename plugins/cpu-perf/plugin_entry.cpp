// ABI glue of the cpu-perf source: option table, vtable and entry symbol.
#include "cpu_perf_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"callstack", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "sample call stacks (--cpu-profiling-callstack); false: the sampled function only"},
    {"kernel", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "add kernel frames where the kernel permits (--kernel-callstack)"},
    {"frequency", PROF_OPTION_INT, "100", 1, 10000, nullptr,
     "samples per second per thread (--cpu-profiling-frequency, --sampling-frequency)"},
    {"period", PROF_OPTION_INT, "0", 0, 1e9, nullptr,
     "CPU-clock nanoseconds between samples; 0 uses frequency (--sample-period)"},
    {"backtrace", PROF_OPTION_ENUM, "fp", 0, -1, "fp,dwarf,none",
     "fp: frame pointers; dwarf: unwind a copy of the user stack with CFI; none (--backtrace)"},
    {"depth", PROF_OPTION_INT, "24", 1, 127, nullptr,
     "most frames per call stack (--sample-backtrace-depth)"},
    {"scope", PROF_OPTION_ENUM, "process-tree", 0, -1, "process-tree,system-wide,none",
     "what to sample: the profiled process tree, every process, or nothing (--sample)"},
    {"switches", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "record context switches: thread states and CPU rows"},
    {"counters", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "hardware counters per thread: comma list of cycles,instructions,cache-misses,"
     "cache-references,branches,branch-misses"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::source_descriptor<prof::cpu_perf::CpuPerfSource>(
        "cpu-perf", "1.0.0",
        "CPU sampling with call stacks, thread states and CPU rows from perf_event_open",
        PROF_SCOPE_SYSTEM, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
