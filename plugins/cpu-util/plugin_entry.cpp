// ABI glue of the cpu-util source: option table, vtable and entry symbol.
#include "cpu_util_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "samples per second (Hz); topsprof --utilization-frequency"},
    {"cpu", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "CPU utilization: total, per CPU, and the profiled process tree"},
    {"memory", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "memory: process tree RSS and its peaks, system memory used"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::source_descriptor<prof::cpu_util::CpuUtilSource>(
        "cpu-util", "1.0.0",
        "CPU utilization and memory of the system and the profiled process tree", PROF_SCOPE_SYSTEM,
        kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
