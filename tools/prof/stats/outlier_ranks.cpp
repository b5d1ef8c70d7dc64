#include "tools/prof/stats/outlier_ranks.hpp"

#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/stats/stats_inputs.hpp"
#include <prof/stats/rank_outliers.hpp>

#include <cstdio>

namespace prof::tool {

std::vector<int> outlier_ranks(const std::vector<std::string> &paths, core::Console &console) {
  const StatsInputs in(paths, "", nullptr, &console, "merge");
  stats::StatsScope scope;
  stats::rank_outliers_scope(scope);
  const ScanResult scanned = in.scan(scope, {});
  const stats::RankOutliers outliers = stats::find_rank_outliers(scanned.aggregator, in.host());
  if (!outliers.typical)
    throw cli::UsageError("merge: --ranks outliers: fewer than 3 ranks to compare in the " +
                          std::to_string(paths.size()) + " reports given");
  std::vector<int> ranks, named;
  for (const size_t i : outliers.outlier_ranks())
    named.push_back(outliers.ranks[i].rank);
  const int typical = outliers.ranks[*outliers.typical].rank;
  for (const int rank : named)
    if (rank >= 0) ranks.push_back(rank);
  if (typical >= 0) ranks.push_back(typical);
  if (!console.quiet())
    std::printf("merge: outliers: %s; typical rank: %d\n",
                named.empty() ? "none" : stats::rank_runs(named).c_str(), typical);
  return ranks;
}

} // namespace prof::tool
