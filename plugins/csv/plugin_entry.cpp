// ABI glue of the csv exporter: descriptor (its option table is in the header) and entry symbol.
#include "csv_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::exporter_descriptor<prof::csv::CsvExporter>(
    "csv", "1.0.0", "Summary tables or event tables as CSV files", prof::csv::kOptions,
    "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
