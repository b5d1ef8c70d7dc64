// The exporter's view of a report being read, so the statistics that
// exporters compute (prof::stats) run on a report without a plugin: strings,
// tracks, stacks and arguments come from the reader. Read-only after
// construction, so any number of threads may use it at once; print and log
// go nowhere.
#pragma once

#include "core/plugin_host/export_view.hpp"
#include "core/plugin_host/session_details.hpp"
#include "core/report/report_reader.hpp"

#include <map>
#include <unordered_map>
#include <vector>

namespace prof::core {

class ReportExportView final : public ExportView {
public:
  /// `reader` must stay open and unchanged while the view is used.
  explicit ReportExportView(const report::ReportReader &reader);
  ReportExportView(const ReportExportView &) = delete;
  ReportExportView &operator=(const ReportExportView &) = delete;

  /// The view as an exporter sees it; safe to share, nothing in it writes.
  ExportHost host() const { return export_host(const_cast<ReportExportView &>(*this)); }

  const char *string(prof_string_id id) const override;
  const prof_track_desc *track(prof_track_id id) const override;
  std::span<const prof_string_id> stack(prof_stack_id id) const override;
  std::span<const prof_arg> args(prof_args_id id) const override;
  const prof_session_info &session() const override { return session_; }
  uint64_t dropped(prof_drop_cause cause) const override { return reader_.dropped(cause); }
  std::vector<prof_track_id> processes(int32_t pid) const override;

private:
  const report::ReportReader &reader_;
  std::unordered_map<prof_track_id, prof_track_desc> tracks_;
  std::multimap<int32_t, prof_track_id> processes_; ///< by pid, in id order
  prof_session_info session_{};
  SessionDetails details_;
};

} // namespace prof::core
