// ABI glue of the pccl source: descriptor, vtable and entry symbol. Reading
// the descriptor has no side effects: NCCL is pointed at the plugin only
// when an instance starts inside the application.
#include "pccl_source.hpp"

#include <prof/plugin.hpp>

#include <array>

namespace {

constexpr std::array<prof_option_desc, 1> kOptions{{
    {"events", PROF_OPTION_ENUM, "all", 0, 0, "all,collectives",
     "what NCCL reports: all (groups, collectives, point-to-point, API calls, kernel channels, "
     "proxy operations and steps, network events) or collectives (all but the proxy's and the "
     "network's, which are many)"},
}};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::pccl::PcclSource>(
    "pccl", "1.0.0",
    "collectives and point-to-point operations of NCCL and NCCL-derived libraries through the "
    "NCCL profiler-plugin interface (v4, v5, v6): communicators, ranks, channels, proxy and "
    "kernel events",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
