// ABI glue of the kineto exporter: descriptor (its option table is in the header) and entry symbol.
#include "kineto_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::kineto::KinetoExporter>(
        "kineto", "1.0.0",
        "PyTorch's Kineto trace JSON (torch.profiler's form) for HTA, TensorBoard and prof import",
        prof::kineto::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
