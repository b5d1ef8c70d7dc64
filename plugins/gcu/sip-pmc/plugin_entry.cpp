// ABI glue of the sip-pmc source: option table, vtable and entry symbol.
#include "sip_pmc_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOwnOptions[] = {
    {"events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "events to record, topsprof's filter string (e.g. \"*/*/sippmc/sip_busy_with_wait\"); "
     "--enable-events"},
    {"import-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "JSON tree of events (isCheck leaves) to record; --import-events"},
    {"export-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "write the event tree as JSON to this file and stop; --export-events"},
    {"metrics", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "a metric (sip_busy_efficiency_per_op) whose default events apply when none are selected; "
     "--metrics"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing --export-events file; --force-overwrite"},
};
constexpr auto kOptions = prof::join_options(kOwnOptions, prof::gcu::kSharedCaptureOptions);

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::gcu::SipPmcSource>(
    "sip-pmc", "1.0.0",
    "GCU SIP performance counters per operator (busy with and without waits, instructions, "
    "stalls) and metrics",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
