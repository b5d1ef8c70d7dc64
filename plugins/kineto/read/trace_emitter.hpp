// Emits an imported PyTorch trace through the import host: lanes become
// tracks named as the torch and cuda sources name theirs (the process
// "python3 (rank 3)" with a track per thread, "GPU 0" with a "Stream 7"
// per stream), the trace's times become ns from kImportStartNs with a
// CLOCK_REALTIME anchor where the trace has wall-clock times, and the
// facts carry the rank, the form and the job.
#pragma once

#include "read/imported_trace.hpp"

#include <prof/plugin.hpp>

#include <cstdint>

namespace prof::kineto {

/// Time 0 of an unanchored trace in the report: its profiler's start.
inline constexpr uint64_t kImportStartNs = 1'000'000'000;

/// Emits `trace` (its passes run) and its facts through `host`.
void emit_trace(const ImportedTrace &trace, const ImportHost &host);

} // namespace prof::kineto
