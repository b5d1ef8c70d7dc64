// The report of each collection window: the -o name for the first, the
// name with "-N" for window N unless the name holds %i (or `prof start -o`
// named it), each expanded with the output-name macros when it opens.
#pragma once

#include "core/capture_windows.hpp"
#include "core/report/report_model.hpp"

#include <memory>
#include <string>

namespace prof::core {

class WindowReports {
public:
  /// `pattern` is the -o / --export-profile name ("" writes no report);
  /// `header` is what every window's report starts with.
  WindowReports(std::string pattern, bool force_overwrite, report::Header header, int pid,
                std::string host);

  /// CaptureWindows::OpenOutput.
  std::unique_ptr<WindowOutput> open(const WindowFacts &facts, std::string *error) const;

  /// The path window `facts` would write, "" for none. Throws
  /// InputError for a bad name.
  std::string path_for(const WindowFacts &facts) const;

private:
  std::string pattern_;
  bool force_;
  report::Header header_;
  int pid_;
  std::string host_;
};

} // namespace prof::core
