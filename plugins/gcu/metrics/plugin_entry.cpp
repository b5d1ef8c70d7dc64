// ABI glue of the gcu-metrics exporter: option table, vtable and entry symbol.
#include "metrics_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"metrics", PROF_OPTION_ENUM, "sip_busy_efficiency_per_op", 0, -1, "sip_busy_efficiency_per_op",
     "the metric table to print: per operator, each SIP's busy cycles without and with waits; "
     "--metrics"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::gcu::MetricsExporter>(
        "gcu-metrics", "1.0.0", "GCU metric tables after the statistics (topsprof --metrics)",
        kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
