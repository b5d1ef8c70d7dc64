// The csv exporter: mode=summary writes the summary tables to the file
// `path`; mode=tables writes one CSV per event table into the folder `path`.
// Output goes to temporary names renamed on success.
#ifndef PROF_PLUGINS_CSV_CSV_EXPORTER_HPP
#define PROF_PLUGINS_CSV_CSV_EXPORTER_HPP

#include "csv_file.hpp"
#include "csv_tables.hpp"
#include <prof/stats/summary_aggregator.hpp>

#include <prof/plugin.hpp>

#include <optional>
#include <string>

namespace prof::csv {

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
