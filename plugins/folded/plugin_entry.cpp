// ABI glue of the folded exporter: option table, vtable and entry symbol.
#include "folded_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "file to write the folded stacks to (required)"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr, "replace an existing file"},
    {"thread-frame", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "start each stack with the thread's name, as perf's stackcollapse does"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::folded::FoldedExporter>(
        "folded", "1.0.0", "Folded call stacks of CPU samples for flame-graph tools", kOptions,
        "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
