// ABI glue of the kineto plugin: one descriptor for Kineto's format both
// ways, the exporter (its option table is in the header) and the importer.
#include "kineto_exporter.hpp"
#include "read/kineto_importer.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::with_importer<prof::kineto::KinetoImporter>(
    prof::exporter_descriptor<prof::kineto::KinetoExporter>(
        "kineto", "1.1.0",
        "PyTorch's Kineto trace JSON (torch.profiler's form) both ways: written for HTA, "
        "TensorBoard and prof import, and read by prof import (the legacy profiler's too)",
        prof::kineto::kOptions, "prof project"));

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
