// ABI glue of the nvtx source: descriptor, vtable and entry symbol. Reading
// the descriptor has no side effects: NVTX is pointed at the plugin only when
// an instance starts inside the application.
#include "nvtx_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"capture-ranges", PROF_OPTION_BOOL, "true", 0, 0, nullptr,
     "NVTX ranges can open collection windows (--capture-range annotation -p NAME[@DOMAIN])"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::nvtx::NvtxSource>(
    "nvtx", "1.0.0",
    "NVTX v3 annotations of the profiled process: ranges, marks, domains, categories and "
    "payloads, through NVTX's injection hook",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
