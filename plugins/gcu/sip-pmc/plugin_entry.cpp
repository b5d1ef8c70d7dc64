// ABI glue of the sip-pmc source: descriptor (its option table is in the header) and entry symbol.
#include "sip_pmc_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::gcu::SipPmcSource>(
    "sip-pmc", "1.0.0",
    "GCU SIP performance counters per operator (busy with and without waits, instructions, "
    "stalls) and metrics",
    PROF_SCOPE_PROCESS, prof::gcu::kSipPmcOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
