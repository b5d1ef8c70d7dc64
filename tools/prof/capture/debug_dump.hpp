// --debug-dump[=DIR] (topsprof's debug-dump): once a capture has finished,
// what a bug report needs goes to DIR, by default ./prof-debug-PID (prof's
// pid): configuration.txt, plugins.txt, environment.txt and chunks.txt
// (see debug_dump_text.hpp).
#pragma once

#include "core/capture/window_reports.hpp"
#include "tools/prof/run_context.hpp"

#include <string>

namespace prof::tool {

class DebugDump {
public:
  /// Does nothing unless --debug-dump was given. Creates the folder now, so
  /// one that cannot be written is cli::UsageError before the capture starts.
  explicit DebugDump(const RunContext &context);

  /// Writes the files, for the capture whose reports `reports` opened. A
  /// failure is one warning: the capture itself went well.
  void write(const core::WindowReports &reports) const;

private:
  const RunContext &context_;
  std::string folder_;
};

} // namespace prof::tool
