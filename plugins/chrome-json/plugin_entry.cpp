// ABI glue of the chrome-json exporter: option table, vtable and entry symbol.
#include "chrome_json_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.json"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing output file instead of refusing it"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::chrome_json::ChromeJsonExporter>(
        "chrome-json", "1.0.0",
        "Chrome Trace Event Format JSON for chrome://tracing and ui.perfetto.dev", kOptions,
        "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
