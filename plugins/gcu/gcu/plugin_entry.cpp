// ABI glue of the gcu source: descriptor (its option table is in the header) and entry symbol.
#include "gcu_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::gcu::GcuSource>(
    "gcu", "1.0.0",
    "GCU device activities (kernels, DMA, SIP, TS), the runtime API trace and utilization",
    PROF_SCOPE_PROCESS, prof::gcu::kGcuOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
