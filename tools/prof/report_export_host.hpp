// A prof_export_api over a report being read, so the statistics code that
// exporters use (core/stats) can run on a report without a plugin: strings,
// tracks and stacks come from the reader. Read-only after construction, so
// any number of threads may use it at once; print and log go nowhere.
#pragma once

#include "tools/prof/session_details.hpp"

#include "core/report/report_reader.hpp"

#include <prof/plugin.hpp>

#include <unordered_map>

namespace prof::tool {

class ReportExportHost {
public:
  /// `reader` must stay open and unchanged while the host is used.
  explicit ReportExportHost(const report::ReportReader &reader);
  ReportExportHost(const ReportExportHost &) = delete;
  ReportExportHost &operator=(const ReportExportHost &) = delete;

  ExportHost host() const { return ExportHost(&api_, const_cast<ReportExportHost *>(this)); }

private:
  static const prof_export_api api_;
  friend struct ReportExportHostApi;

  const report::ReportReader &reader_;
  std::unordered_map<prof_track_id, prof_track_desc> tracks_;
  prof_session_info session_{};
  SessionDetails details_;
};

} // namespace prof::tool
