// ABI glue of the nvtx source: descriptor, vtable and entry symbol. Reading
// the descriptor has no side effects: NVTX is pointed at the plugin only when
// an instance starts inside the application.
#include "nvtx_source.hpp"

#include <prof/plugin.hpp>

#include <array>

namespace {

// No options: ranges reach prof's capture ranges only when it waits for them
// (--capture-range annotation -p NAME[@DOMAIN]), at the cost of a load otherwise.
constexpr std::array<prof_option_desc, 0> kOptions{};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::nvtx::NvtxSource>(
    "nvtx", "1.0.0",
    "NVTX v3 annotations of the profiled process: ranges, marks, domains, categories and "
    "payloads, through NVTX's injection hook",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
