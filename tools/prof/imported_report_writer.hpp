// Writes an imported PyTorch trace as a .profrep: lanes become tracks
// named as the torch and cuda sources name theirs (the process
// "python3 (rank 3)" with a track per thread, "GPU 0" with a "Stream 7"
// per stream), the trace's times become the report's ns with a
// CLOCK_REALTIME anchor where the trace has wall-clock times, and the
// header records the rank, the form and the file.
#pragma once

#include "tools/prof/imported_trace.hpp"

#include <cstdint>
#include <string>

namespace prof::tool {

/// What the report says of its times.
struct ImportedReportFacts {
  uint64_t events = 0;
  /// The trace had wall-clock times: ranks merge on them. Else (a legacy
  /// trace, or a Kineto one with times relative to an unknown start) its
  /// start is anchored at a fixed time, so ranks merge at their starts.
  bool wall_clock = false;
};

/// Time 0 of an unanchored trace in the report: its profiler's start.
inline constexpr uint64_t kImportStartNs = 1'000'000'000;

/// Writes `trace` (its passes run) to `path`, a new file. `source` is the
/// trace's file as the user named it. Throws report::ReportError.
ImportedReportFacts write_imported_report(const ImportedTrace &trace, const std::string &source,
                                          const std::string &path);

} // namespace prof::tool
