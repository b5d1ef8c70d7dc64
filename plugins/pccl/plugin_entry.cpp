// ABI glue of the pccl source: descriptor, vtable and entry symbol. Reading
// the descriptor has no side effects: NCCL is pointed at the plugin only
// when an instance starts inside the application.
#include "pccl_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::pccl::PcclSource>(
    "pccl", "1.0.0",
    "collectives and point-to-point operations of NCCL and NCCL-derived libraries through the "
    "NCCL profiler-plugin interface (v4, v5, v6): communicators, ranks, channels, proxy and "
    "kernel events",
    PROF_SCOPE_PROCESS, prof::pccl::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
