// What an exporter reads through prof_export_api, whoever holds the data: a
// live capture's catalog (CatalogExportView) or a report being read
// (ReportExportView). The C function table over it is implemented once.
#pragma once

#include <prof/plugin.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace prof::core {

class ExportView {
public:
  virtual ~ExportView() = default;

  /// Text of `id`; "" for an unknown id.
  virtual const char *string(prof_string_id id) const = 0;
  /// Description of a track; nullptr for an unknown id.
  virtual const prof_track_desc *track(prof_track_id id) const = 0;
  /// Frames of a call stack, leaf first; empty for an unknown id.
  virtual std::span<const prof_string_id> stack(prof_stack_id id) const = 0;
  /// Arguments of a set; empty for id 0 or an unknown id.
  virtual std::span<const prof_arg> args(prof_args_id id) const = 0;
  virtual const prof_session_info &session() const = 0;
  /// Events or records the capture lost under `cause`.
  virtual uint64_t dropped(prof_drop_cause cause) const = 0;
  /// The process tracks of process `pid`, in id order (several only in a
  /// merged report); none by default.
  virtual std::vector<prof_track_id> processes(int32_t pid) const;
  /// The process track of `pid` for the owned track `near`: the only one,
  /// or in a merged report the one of `near`'s input (the same label
  /// " [...]" as the nearest track above `near` that has one); 0 for none.
  prof_track_id process_track(int32_t pid, prof_track_id near) const;
  /// The exporter's option `name`, nullptr when unset; none by default.
  virtual const char *option(const char *name) const;
  /// The exporter's console output and log messages; nowhere by default.
  virtual void print(std::string_view line);
  virtual void log(prof_log_level level, std::string_view message);
};

/// The prof_export_api whose host pointer is an ExportView.
const prof_export_api &export_api();

/// `view` as an exporter sees it; `view` must outlive the result.
inline ExportHost export_host(ExportView &view) { return ExportHost(&export_api(), &view); }

} // namespace prof::core
