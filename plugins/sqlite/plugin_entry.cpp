// ABI glue of the sqlite exporter: descriptor (its option table is in the header) and entry symbol.
#include "sqlite_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor =
    prof::exporter_descriptor<prof::sqlite::SqliteExporter>(
        "sqlite", prof::sqlite::kPluginVersion,
        "SQLite database of every event, track, string and stack (docs/sqlite-schema.md)",
        prof::sqlite::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
