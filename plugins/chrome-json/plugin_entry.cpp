// ABI glue of the chrome-json exporter: descriptor (its option table is in the header) and entry
// symbol.
#include "chrome_json_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::chrome_json::ChromeJsonExporter>(
        "chrome-json", "1.0.0",
        "Chrome Trace Event Format JSON for chrome://tracing and ui.perfetto.dev",
        prof::chrome_json::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
