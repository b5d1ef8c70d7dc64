#include "tools/prof/reports/saved_report.hpp"

#include "core/events/report_replay.hpp"
#include "core/plugin_host/exporter_instance.hpp"
#include "core/plugin_host/session_details.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/run_context.hpp"

#include <memory>

namespace prof::tool {

int export_saved_report(const std::string &path,
                        const std::vector<SelectedPlugin> &selected_exporters,
                        core::Console &console, const ReportAdditions &additions) {
  report::ReportReader reader;
  // Replay decodes every EVENTS chunk anyway and names those that fail:
  // checking them at open too would decode them twice.
  if (!reader.open(path, report::ReadOptions{.check_events = false})) {
    throw cli::UsageError(reader.problems().empty() ? "cannot read report '" + path + "'"
                                                    : reader.problems().back());
  }
  for (const std::string &problem : reader.problems())
    console.warning(problem);

  const report::Header &header = reader.header();
  console.set_pid(header.pids.empty() ? 0 : header.pids.front());
  core::Catalog catalog;
  core::load_catalog(reader, catalog);
  core::SessionDetails details;
  const prof_session_info session = core::session_of(header, details);
  const std::vector<prof_event> added =
      additions ? additions(reader, catalog) : std::vector<prof_event>{};

  std::vector<std::unique_ptr<core::ExporterInstance>> exporters;
  std::vector<core::EventSink *> sinks;
  for (const SelectedPlugin &selected : selected_exporters) {
    auto exporter = std::make_unique<core::ExporterInstance>(*selected.plugin, selected.options,
                                                             catalog, console, session);
    if (!exporter->open()) {
      print_error(exporter->error());
      return kExitFailure;
    }
    sinks.push_back(exporter.get());
    exporters.push_back(std::move(exporter));
  }
  ProgressBar progress(console, "process profile data");
  // Exporters print in finish(); let the bar end before that.
  struct BarEnd : core::EventSink {
    ProgressBar &bar;
    explicit BarEnd(ProgressBar &b) : bar(b) {}
    void consume(const prof_event *, size_t) override {}
    void finish(const core::Catalog &, const core::CaptureEnd &) override { bar.finish(); }
  } bar_end(progress);
  sinks.insert(sinks.begin(), &bar_end);
  // The additions reach every exporter after the report's own events.
  struct Additions : core::EventSink {
    const std::vector<prof_event> &events;
    const std::vector<core::EventSink *> &exporters;
    Additions(const std::vector<prof_event> &e, const std::vector<core::EventSink *> &x)
        : events(e), exporters(x) {}
    void consume(const prof_event *, size_t) override {}
    void finish(const core::Catalog &, const core::CaptureEnd &) override {
      for (core::EventSink *sink : exporters)
        sink->consume(events.data(), events.size());
    }
  };
  const std::vector<core::EventSink *> exporter_sinks(sinks.begin() + 1, sinks.end());
  Additions addition(added, exporter_sinks);
  if (!added.empty()) sinks.insert(sinks.begin() + 1, &addition);
  const std::vector<uint64_t> malformed =
      core::replay(reader, catalog, sinks, [&](uint64_t done, uint64_t total) {
        progress.update(total ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
      });
  for (const uint64_t offset : malformed)
    console.warning(malformed_chunk_warning(path, offset));
  int status = kExitOk;
  for (auto &exporter : exporters)
    if (exporter->failed()) {
      print_error(exporter->error());
      status = kExitFailure;
    }
  return status;
}

} // namespace prof::tool
