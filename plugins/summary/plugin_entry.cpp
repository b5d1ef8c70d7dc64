// ABI glue of the summary exporter: option table, vtable and entry symbol.
#include "summary_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api",
     "summary: all activities and counters; gcu: device activities only; "
     "per-gcu: one table per device; api: API calls only"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::summary::SummaryExporter>(
        "summary", "1.0.0", "Statistics of activities and counters (topsprof statistics mode)",
        kOptions);

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
