#include "csv_exporter.hpp"

#include "csv_summary.hpp"

#include <prof/declared_options.hpp>

namespace prof::csv {

bool CsvExporter::fail(const std::string &message) {
  host_.log(PROF_LOG_ERROR, "csv: " + message);
  return false;
}

bool CsvExporter::begin() {
  const DeclaredOptions declared(host_, kOptions);
  const std::string_view mode = declared.text("mode");
  if (mode == "summary")
    mode_ = CsvMode::Summary;
  else if (mode == "tables")
    mode_ = CsvMode::Tables;
  else
    return fail("unknown mode '" + std::string(mode) + "' (choose summary or tables)");
  const std::optional<output::OutputOptions> options =
      output::OutputOptions::read(host_, kOptions, "csv");
  if (!options) return false;
  std::string error;
  if (mode_ == CsvMode::Tables) {
    path_ = options->path;
    tables_.emplace(host_);
    if (!tables_->open(path_, options->overwrite, error)) return fail(error);
  } else {
    path_ =
        output::resolve_output_path(options->path, output::output_pid(host_.session()), kExtension);
    // Open now so an unwritable path fails before the capture, not after.
    if (!summary_file_.open(path_, options->overwrite, error)) return fail(error);
    aggregator_.emplace(host_);
  }
  begun_ = true;
  return true;
}

bool CsvExporter::consume(const prof_event *events, size_t count) {
  if (!begun_) return fail("consume() called without a successful begin()");
  if (tables_) {
    for (size_t i = 0; i < count; ++i)
      tables_->add(events[i]);
  } else {
    for (size_t i = 0; i < count; ++i)
      aggregator_->add(events[i]);
  }
  return true;
}

bool CsvExporter::end() {
  if (!begun_) return fail("end() called without a successful begin()");
  begun_ = false;
  std::string error;
  if (tables_) {
    const uint64_t events = tables_->events();
    if (!tables_->commit(error)) return fail(error);
    tables_.reset();
    host_.print("csv: " + std::to_string(events) + " events written to " + path_ +
                (path_.ends_with('/') ? "" : "/"));
    return true;
  }
  const uint64_t rows = write_summary(host_, *aggregator_, summary_file_);
  aggregator_.reset();
  if (!summary_file_.commit(error)) return fail(error);
  host_.print("csv: summary of " + std::to_string(rows) + " rows written to " + path_);
  return true;
}

} // namespace prof::csv
