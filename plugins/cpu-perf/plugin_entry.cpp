// ABI glue of the cpu-perf source: descriptor (its option table is in the header) and entry symbol.
#include "cpu_perf_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::source_descriptor<prof::cpu_perf::CpuPerfSource>(
        "cpu-perf", "1.0.0",
        "CPU sampling with call stacks, thread states and CPU rows from perf_event_open",
        PROF_SCOPE_SYSTEM, prof::cpu_perf::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
