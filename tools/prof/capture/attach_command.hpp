// `prof attach [options] PID[,PID...]` and `prof [--dynamic on] --pid PID`:
// profiling processes that are already running. System-scope sources
// (cpu-perf, cpu-util, nic) attach at once; process-scope ones through the
// agent of a process started with PROF_MODE=dynamic. Detaching leaves the
// processes running.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Returns the exit code; throws cli::UsageError for bad input (no such
/// process, a process-scope source for a process that cannot take it).
int run_attach(const RunContext &context);

} // namespace prof::tool
