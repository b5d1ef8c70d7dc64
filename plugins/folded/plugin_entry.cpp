// ABI glue of the folded exporter: descriptor (its option table is in the header) and entry symbol.
#include "folded_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::folded::FoldedExporter>(
        "folded", "1.0.0", "Folded call stacks of CPU samples for flame-graph tools",
        prof::folded::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
