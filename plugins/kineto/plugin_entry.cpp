// ABI glue of the kineto exporter: option table, vtable and entry symbol.
#include "kineto_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.pt.trace.json"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing output file instead of refusing it"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::kineto::KinetoExporter>(
        "kineto", "1.0.0",
        "PyTorch's Kineto trace JSON (torch.profiler's form) for HTA, TensorBoard and prof import",
        kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
