// ABI glue of the perfetto plugin: one descriptor for Perfetto's protobuf
// trace format both ways, the exporter (its option table is in the header)
// and the importer (read/).
#include "perfetto_exporter.hpp"
#include "read/perfetto_importer.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::with_importer<prof::perfetto::PerfettoImporter>(
        prof::exporter_descriptor<prof::perfetto::PerfettoExporter>(
            "perfetto", "1.1.0",
            "Perfetto protobuf traces both ways: written for ui.perfetto.dev and trace_processor "
            "(visual profiler), and read by prof import (Perfetto's SDK, traced, prof's own)",
            prof::perfetto::kOptions, "prof project"));

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
