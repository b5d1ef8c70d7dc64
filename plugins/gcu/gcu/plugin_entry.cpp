// ABI glue of the gcu source: option table, vtable and entry symbol.
#include "gcu_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOwnOptions[] = {
    {"activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "activities to record, topsprof's filter string (e.g. \"*/general/operator|Api "
     "Trace/RUNTIME/*\"); --enable-activities"},
    {"import-activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "JSON tree of activities (isCheck leaves) to record; --import-activities"},
    {"export-activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "write the activity tree as JSON to this file and stop; --export-activities"},
    {"metrics", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "a metric whose default activities apply when none are selected; --metrics"},
    {"utilization", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "sample device and cluster utilization; --gcu-utilization"},
    {"utilization-frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "utilization samples per second (Hz); --gcu-utilization-frequency"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing --export-activities file; --force-overwrite"},
};
constexpr auto kOptions = prof::join_options(kOwnOptions, prof::gcu::kSharedCaptureOptions);

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::gcu::GcuSource>(
    "gcu", "1.0.0",
    "GCU device activities (kernels, DMA, SIP, TS), the runtime API trace and utilization",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
