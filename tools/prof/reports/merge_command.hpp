// `prof merge -o OUTPUT [-f] INPUT...` and topsprof's
// `--visual-profiler-merge-from DIR --visual-profiler-merge-to FILE`: the
// reports of several processes or ranks as one report on one timeline, or as
// one Perfetto trace for a visual profiler.
#pragma once

#include "core/plugin_host/console.hpp"
#include "tools/prof/run_context.hpp"

#include <functional>
#include <string>
#include <vector>

namespace prof::tool {

/// The ranks `--ranks outliers` keeps, from the reports' paths (the stats
/// front end gives it: tools/prof/stats/outlier_ranks.hpp).
using OutlierRanks =
    std::function<std::vector<int>(const std::vector<std::string> &paths, core::Console &console)>;

/// `args` are the words after "merge". Returns the exit code; bad input is
/// a cli::UsageError. Without `outlier_ranks`, `--ranks outliers` is refused.
int run_merge(const std::vector<std::string> &args, core::Console &console,
              const OutlierRanks &outlier_ranks = {});

/// --visual-profiler-merge-from DIR --visual-profiler-merge-to FILE (the
/// option rules have checked that both are given, alone).
int run_visual_profiler_merge(const RunContext &context);

} // namespace prof::tool
