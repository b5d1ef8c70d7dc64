// ABI glue of the trace exporter: option table, vtable and entry symbol.
#include "trace_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu",
     "all: every slice and instant with its track; gcu: device activities only "
     "(topsprof --print-gcu-trace)"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::trace::TraceExporter>(
        "trace", "1.0.0", "Activities in start-time order (topsprof trace mode)", kOptions,
        "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
