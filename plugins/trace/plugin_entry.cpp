// ABI glue of the trace exporter: descriptor (its option table is in the header) and entry symbol.
#include "trace_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::trace::TraceExporter>(
        "trace", "1.0.0", "Activities in start-time order (topsprof trace mode)",
        prof::trace::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
