// The report of each collection window: the -o name for the first, the
// name with "-N" for window N unless the name holds %i (or `prof start -o`
// named it), each expanded with the output-name macros when it opens.
#pragma once

#include "core/capture/capture_windows.hpp"
#include "core/capture/flight_recorder.hpp"
#include "core/report/report_model.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace prof::core {

class WindowReports {
public:
  /// `pattern` is the -o / --export-profile name ("" writes no report);
  /// `header` is what every window's report starts with.
  WindowReports(std::string pattern, bool force_overwrite, report::Header header, int pid,
                std::string host);

  /// Windows keep only their latest events within `bound`, written on dumps.
  /// With `reusable_args` (when nothing but these windows sees the events),
  /// the argument sets no kept event refers to are freed (ArgsSweeper).
  void keep_latest(FlightBound bound, ArgsTable *reusable_args = nullptr);
  /// CaptureWindows::OpenOutput.
  std::unique_ptr<WindowOutput> open(const WindowFacts &facts, std::string *error) const;

  /// The path window `facts` would write, "" for none. Throws
  /// InputError for a bad name.
  std::string path_for(const WindowFacts &facts) const;

  /// What every window's report starts with.
  const report::Header &header() const { return header_; }
  /// The reports opened so far, absolute paths in order (--trace-rotation
  /// may have removed the oldest since).
  std::vector<std::string> opened() const;

private:
  std::unique_ptr<WindowOutput> open_report(const WindowFacts &facts, std::string *error) const;

  FlightBound flight_;
  std::unique_ptr<ArgsSweeper> sweeper_;
  std::string pattern_;
  bool force_;
  report::Header header_;
  int pid_;
  std::string host_;
  mutable std::mutex mutex_; // windows open on the controller's thread
  mutable std::vector<std::string> opened_;
};

} // namespace prof::core
