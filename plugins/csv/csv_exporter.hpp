// The csv exporter: mode=summary writes the summary tables to the file
// `path`; mode=tables writes one CSV per event table into the folder `path`.
// Output goes to temporary names renamed on success.
#ifndef PROF_PLUGINS_CSV_CSV_EXPORTER_HPP
#define PROF_PLUGINS_CSV_CSV_EXPORTER_HPP

#include "csv_file.hpp"
#include "csv_tables.hpp"
#include <prof/output/exporter_output.hpp>
#include <prof/stats/summary_aggregator.hpp>

#include <prof/plugin.hpp>

#include <optional>
#include <string>

namespace prof::csv {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "summary: the CSV file to write, or a folder (existing or ending in '/') that receives "
     "prof-<pid>.csv; tables: the folder to write the CSV files to"},
    output::kOverwriteOption,
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,tables",
     "summary: the summary tables in one file; tables: one file per event table "
     "(tracks, slices, instants, counters, samples, stacks, flows)"},
};

/// What a folder given as `path` receives in mode=summary: prof-<pid>.csv.
inline constexpr const char *kExtension = ".csv";

enum class CsvMode { Summary, Tables };

class CsvExporter {
public:
  explicit CsvExporter(ExportHost host) : host_(host) {}
  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  bool fail(const std::string &message);

  ExportHost host_;
  CsvMode mode_ = CsvMode::Summary;
  std::string path_;
  bool begun_ = false;
  CsvFile summary_file_;
  std::optional<stats::SummaryAggregator> aggregator_;
  std::optional<CsvTables> tables_;
};

} // namespace prof::csv

#endif
