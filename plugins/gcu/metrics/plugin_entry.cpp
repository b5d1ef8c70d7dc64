// ABI glue of the gcu-metrics exporter: descriptor (its option table is in the header) and entry
// symbol.
#include "metrics_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::gcu::MetricsExporter>(
        "gcu-metrics", "1.0.0", "GCU metric tables after the statistics (topsprof --metrics)",
        prof::gcu::kMetricsOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
