// ABI glue of the cpu-util source: descriptor (its option table is in the header) and entry symbol.
#include "cpu_util_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::source_descriptor<prof::cpu_util::CpuUtilSource>(
        "cpu-util", "1.0.0",
        "CPU utilization and memory of the system and the profiled process tree", PROF_SCOPE_SYSTEM,
        prof::cpu_util::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
