// What `prof stats` analyses: one report, or several (files, or folders of
// them) merged first as `prof merge` merges them, into a temporary report.
// In a job of several processes (StatsJob) each scans its share: of one
// report's EVENTS chunks, or of several reports, whose merge it writes with
// every input's records but only its own inputs' events, so that every
// process's ids are the same.
#pragma once

#include "core/plugin_host/console.hpp"
#include "core/plugin_host/report_export_view.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/stats/stats_job.hpp"
#include "tools/prof/stats/stats_scan.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prof::tool {

class StatsInputs {
public:
  /// Opens `inputs` (merging several into a temporary report). Warnings
  /// (damage, lost events) go to `console` when given. Throws
  /// cli::UsageError naming the input that cannot be read, its message
  /// starting with `command` ("stats: ...").
  StatsInputs(const std::vector<std::string> &inputs, const std::string &output,
              const StatsJob *job, core::Console *console, const std::string &command = "stats");
  StatsInputs(const StatsInputs &) = delete;
  StatsInputs &operator=(const StatsInputs &) = delete;

  /// This process's share scanned (ScanOptions' chunk range set here).
  ScanResult scan(const stats::StatsScope &scope, ScanOptions options) const;

  /// Every event this process's report holds, batch by batch in file
  /// order, to `visit` on this thread (a second pass: EVENTS chunks that
  /// do not decode are left out, as the scan names them).
  void visit(const std::function<void(const prof_event *, size_t)> &visit) const;
  /// Whether this process's report holds every input's events (false in a
  /// job over several reports, where it holds its share's only).
  bool holds_every_event() const { return job_ == nullptr || temporary_.path.empty(); }

  const ExportHost &host() const { return host_; }
  /// The report scanned, for a pass of one's own over its events.
  const report::ReportReader &reader() const { return reader_; }
  /// The report scanned (the temporary merge when there are several).
  const std::string &path() const { return path_; }
  /// For titles: the one input's file name, or "N reports".
  const std::string &title() const { return title_; }

private:
  /// The temporary merge, removed with this (also when the constructor throws).
  struct Temporary {
    std::string path;
    ~Temporary();
  };
  Temporary temporary_;
  const StatsJob *job_;
  std::string path_, title_;
  report::ReportReader reader_;
  std::unique_ptr<core::ReportExportView> view_;
  ExportHost host_{nullptr, nullptr}; // the view's, once open
};

} // namespace prof::tool
