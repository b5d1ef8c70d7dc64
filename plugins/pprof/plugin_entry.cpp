// ABI glue of the pprof exporter: descriptor (its option table is in the header) and entry symbol.
#include "pprof_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::pprof::PprofExporter>(
        "pprof", "1.0.0",
        "CPU samples, heap stacks and device kernels as gzipped pprof (go tool pprof, Pyroscope, "
        "Parca)",
        prof::pprof::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
