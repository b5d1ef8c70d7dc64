// ABI glue of example-durations: its option table, vtable and entry symbol.
#include "example_durations.hpp"

namespace {

constexpr prof_option_desc kOptions[] = {
    {"names", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "comma-separated slice names to count, any case; empty: every slice"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<example::DurationsExporter>(
        "example-durations", "1.0.0", "Example exporter: slice durations by name", kOptions,
        "prof SDK example");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
