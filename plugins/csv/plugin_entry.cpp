// ABI glue of the csv exporter: option table, vtable and entry symbol.
#include "csv_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "summary: the CSV file to write; tables: the folder to write the CSV files to (required)"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr, "replace existing files"},
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,tables",
     "summary: the summary tables in one file; tables: one file per event table "
     "(tracks, slices, instants, counters, samples, stacks, flows)"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::exporter_descriptor<prof::csv::CsvExporter>(
    "csv", "1.0.0", "Summary tables or event tables as CSV files", kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
