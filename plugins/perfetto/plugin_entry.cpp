// ABI glue of the perfetto exporter: descriptor (its option table is in the header) and entry
// symbol.
#include "perfetto_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::perfetto::PerfettoExporter>(
        "perfetto", "1.0.0",
        "Perfetto protobuf trace for ui.perfetto.dev and trace_processor (visual profiler)",
        prof::perfetto::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
