// ABI glue of the perfetto exporter: option table, vtable and entry symbol.
#include "perfetto_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives "
     "prof-<pid>.perfetto-trace (--export-visual-profiler DIR)"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing output file instead of refusing it"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::perfetto::PerfettoExporter>(
        "perfetto", "1.0.0",
        "Perfetto protobuf trace for ui.perfetto.dev and trace_processor (visual profiler)",
        kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
