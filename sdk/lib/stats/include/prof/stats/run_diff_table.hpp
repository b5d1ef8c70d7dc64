// `prof diff`'s output: a RunDiff as a StatsTable (console, CSV, JSON and
// HTML through the renderings of `prof stats`), with the verdict.
#pragma once

#include <prof/stats/run_diff.hpp>
#include <prof/stats/stats_table.hpp>

#include <string>

namespace prof::stats {

/// One line: "regression: 2 slower (largest: kernel matmul_dtu +98.20%), 0
/// faster, ..." or "no change beyond the noise floor: ...".
std::string verdict_line(const RunDiff &diff);

/// The table "diff": a row per item, slower first, with each run's median,
/// 90th percentile, calls and time per call, the noise floor and how sure
/// the verdict is; notes say what was compared, the rule and the verdict.
StatsTable diff_table(const RunDiff &diff, const DiffOptions &options, const std::string &base,
                      const std::string &next);

} // namespace prof::stats
