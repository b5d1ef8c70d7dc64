// A merged report of a synthetic data-parallel job for the HTML page's
// tests at scale: `ranks` processes named as a folder of rank reports names
// them ("python3 /job/conv_ddp.py 6 1 3 0.3 (rank 56) [node007 rank 56]"),
// 8 ranks to a node (fewer for small jobs), each running `steps` steps of
// 100 ms of compute (plus a few microseconds of jitter) ending in an
// all-reduce on "world". The slow ranks are 3 ms later to every third
// all-reduce, their steps as much longer.
#pragma once

#include "stats_test_report.hpp"

#include <prof/stats/rank_charts.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace prof::stats::testing {

inline constexpr uint64_t kSlowBy = 3'000'000; ///< ns the slow ranks are late by

struct SlowNodeJob {
  size_t ranks = 0, ranks_per_node = 8, steps = 24;
  std::vector<size_t> slow; ///< the slow ranks
};

/// The job's report (process, thread, step and all-reduce of each rank).
TestReport slow_node_report(const SlowNodeJob &job);

/// The HTML page of the job as `prof stats --format html --report
/// outliers,stragglers` makes it (its report written to `path`), and the
/// charts drawn on it.
struct SlowNodePage {
  RankCharts charts;
  std::string html;
};
SlowNodePage slow_node_page(const SlowNodeJob &job, const std::string &path);

/// "node007": the node of `rank`.
std::string node_of(const SlowNodeJob &job, size_t rank);

} // namespace prof::stats::testing
