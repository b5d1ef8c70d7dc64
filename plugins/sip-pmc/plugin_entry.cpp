// ABI glue of the sip-pmc source: option table, vtable and entry symbol.
#include "sip_pmc_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "events to record, topsprof's filter string (e.g. \"*/*/sippmc/sip_busy_with_wait\"); "
     "--enable-events"},
    {"import-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "JSON tree of events (isCheck leaves) to record; --import-events"},
    {"export-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "write the event tree as JSON to this file and stop; --export-events"},
    {"devices", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "record only these devices, e.g. \"0,2\"; must agree with the filter; --devices"},
    {"metrics", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "a metric (sip_busy_efficiency_per_op) whose default events apply when none are selected; "
     "--metrics"},
    {"buffer", PROF_OPTION_ENUM, "device", 0, -1, "device,host",
     "where the device writes records first; --buffer"},
    {"device-buffer-size", PROF_OPTION_INT, "64", 1, 64, nullptr,
     "device buffer per device in MB; --device-buffer-size"},
    {"host-ringbuffer-size", PROF_OPTION_INT, "16", 2, 64, nullptr,
     "host ring per device in MB; --host-ringbuffer-size"},
    {"watermark-threshold", PROF_OPTION_INT, "15", 1, 63, nullptr,
     "MB in the host ring that trigger delivery, below the ring size; --watermark-threshold"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing --export-events file; --force-overwrite"},
    {"driver", PROF_OPTION_STRING, "libgcusim.so", 0, -1, nullptr,
     "driver library used when the application has not loaded one (gcusim by default)"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::gcu::SipPmcSource>(
    "sip-pmc", "1.0.0",
    "GCU SIP performance counters per operator (busy with and without waits, instructions, "
    "stalls) and metrics",
    PROF_SCOPE_PROCESS, kOptions);

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
