// ABI glue of the sqlite exporter: option table, vtable and entry symbol.
#include "sqlite_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.sqlite"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing output file instead of refusing it"},
};

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::sqlite::SqliteExporter>(
        "sqlite", prof::sqlite::kPluginVersion,
        "SQLite database of every event, track, string and stack (docs/sqlite-schema.md)", kOptions,
        "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
