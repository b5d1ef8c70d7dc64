// `prof merge -o OUTPUT [-f] INPUT...` and topsprof's
// `--visual-profiler-merge-from DIR --visual-profiler-merge-to FILE`: the
// reports of several processes or ranks as one report on one timeline, or as
// one Perfetto trace for a visual profiler.
#pragma once

#include "core/plugin_host/console.hpp"
#include "tools/prof/run_context.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// `args` are the words after "merge". Returns the exit code; bad input is
/// a cli::UsageError.
int run_merge(const std::vector<std::string> &args, core::Console &console);

/// --visual-profiler-merge-from DIR --visual-profiler-merge-to FILE (the
/// option rules have checked that both are given, alone).
int run_visual_profiler_merge(const RunContext &context);

} // namespace prof::tool
