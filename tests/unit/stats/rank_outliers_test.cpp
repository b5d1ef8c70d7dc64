// find_rank_outliers on synthetic jobs of 64 ranks (8 nodes) merged as
// `prof stats FOLDER` merges them: each cause is found, in the ranks it
// hit and nowhere else; a job with jitter only, or with clocks skewed per
// node, has no outlier.
#include "core/plugin_host/report_export_view.hpp"
#include "core/report/report_merge.hpp"
#include "core/report/report_reader.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/synthetic_job.hpp"
#include "tools/prof/reports/report_folder.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include <prof/stats/rank_outliers.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace prof::stats {
namespace {

using prof::testing::JobCause;
using prof::testing::SyntheticJob;

struct Found {
  RankOutliers outliers;
  std::set<int> named; ///< ranks any finding names
  std::set<std::string> measures;
};

Found outliers_of(const SyntheticJob &job) {
  prof::testing::ScratchDir dir("rank-outliers");
  prof::testing::write_synthetic_job(job, dir.file("job"), 2);
  const std::string merged = dir.file("merged.profrep");
  report::write_merge(report::plan_merge(tool::report_paths({dir.file("job")}, merged)), merged,
                      false);
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(merged));
  core::ReportExportView view(reader);
  StatsScope scope;
  rank_outliers_scope(scope);
  const StatsAggregator aggregator = tool::scan_report(reader, view.host(), scope).aggregator;
  Found found{find_rank_outliers(aggregator, view.host()), {}, {}};
  for (const OutlierFinding &f : found.outliers.findings) {
    found.measures.insert(measure_name(f.measure));
    for (const size_t i : f.ranks)
      found.named.insert(found.outliers.ranks[i].rank);
  }
  return found;
}

std::string texts(const RankOutliers &outliers) {
  std::string all;
  for (const OutlierFinding &f : outliers.findings)
    all += f.text + "\n";
  return all;
}

SyntheticJob job_of(JobCause cause) {
  SyntheticJob job;
  job.ranks = 64;
  job.cause = cause;
  return job;
}

TEST(RankOutliers, JitterAloneIsNoOutlier) {
  const Found found = outliers_of(job_of(JobCause::none));
  ASSERT_EQ(found.outliers.ranks.size(), 64u);
  EXPECT_TRUE(found.outliers.findings.empty()) << texts(found.outliers);
  ASSERT_TRUE(found.outliers.typical.has_value());
  EXPECT_EQ(found.outliers.ranks[0].node, "node000");
  EXPECT_EQ(found.outliers.ranks[63].rank, 63);
}

TEST(RankOutliers, ClocksSkewedPerNodeAreTakenOut) {
  const Found found = outliers_of(job_of(JobCause::node_clock_skew));
  EXPECT_TRUE(found.outliers.findings.empty()) << texts(found.outliers);
}

TEST(RankOutliers, SlowRankIsNamedByStepsLatenessAndKernels) {
  const SyntheticJob job = job_of(JobCause::slow_rank);
  const Found found = outliers_of(job);
  const int slow = prof::testing::affected_ranks(job).front();
  EXPECT_EQ(found.named, std::set<int>{slow}) << texts(found.outliers);
  EXPECT_EQ(found.measures, (std::set<std::string>{"step time", "lateness", "kernel time"}));
  for (const OutlierFinding &f : found.outliers.findings) {
    EXPECT_TRUE(f.node.empty());
    if (f.measure == OutlierMeasure::lateness) {
      EXPECT_EQ(f.what, "all_reduce");
      EXPECT_EQ(f.items, f.of_items); // late to every one
      // 12 ms a step over 4 buckets: 3 ms late to each.
      EXPECT_NEAR(f.excess, 3e6, 0.3e6);
      EXPECT_NE(f.text.find("rank " + std::to_string(slow) + " (node"), std::string::npos);
    }
  }
  ASSERT_TRUE(found.outliers.typical.has_value());
  EXPECT_NE(found.outliers.ranks[*found.outliers.typical].rank, slow);
}

TEST(RankOutliers, SlowNodeIsOneFindingPerMeasure) {
  const SyntheticJob job = job_of(JobCause::slow_node);
  const Found found = outliers_of(job);
  const std::vector<int> ranks = prof::testing::affected_ranks(job);
  EXPECT_EQ(found.named, std::set<int>(ranks.begin(), ranks.end())) << texts(found.outliers);
  EXPECT_EQ(found.outliers.findings.size(), 3u) << texts(found.outliers);
  const std::string node = found.outliers.ranks[static_cast<size_t>(ranks.front())].node;
  for (const OutlierFinding &f : found.outliers.findings) {
    EXPECT_EQ(f.node, node);
    EXPECT_EQ(f.text.rfind(node + ": ranks " + std::to_string(ranks.front()) + "-" +
                               std::to_string(ranks.back()),
                           0),
              0u)
        << f.text;
  }
}

TEST(RankOutliers, PeriodicRankIsLateInSomeStepsOnly) {
  SyntheticJob job = job_of(JobCause::periodic_rank);
  job.period = 4;
  const Found found = outliers_of(job);
  const int slow = prof::testing::affected_ranks(job).front();
  EXPECT_EQ(found.named, std::set<int>{slow}) << texts(found.outliers);
  for (const OutlierFinding &f : found.outliers.findings) {
    if (f.measure == OutlierMeasure::step_time) EXPECT_EQ(f.items, 3u); // steps 4, 8, 12
    if (f.measure == OutlierMeasure::lateness) EXPECT_EQ(f.items, 12u); // their 4 all_reduces
  }
}

TEST(RankOutliers, SlowLinkNamesThePairInTheirExchange) {
  const SyntheticJob job = job_of(JobCause::slow_link);
  const Found found = outliers_of(job);
  const std::vector<int> pair = prof::testing::affected_ranks(job);
  EXPECT_EQ(found.named, std::set<int>(pair.begin(), pair.end())) << texts(found.outliers);
  EXPECT_TRUE(found.measures.count("communication")) << texts(found.outliers);
  for (const OutlierFinding &f : found.outliers.findings)
    if (f.measure == OutlierMeasure::communication)
      EXPECT_TRUE(f.what == "send" || f.what == "recv");
}

TEST(RankRuns, JoinsRunsOfRanks) {
  EXPECT_EQ(rank_runs({56, 57, 58, 59, 3, 17, 18}), "3, 17, 18, 56-59");
  EXPECT_EQ(rank_runs({}), "");
  EXPECT_EQ(rank_runs({5, 5}), "5");
}

} // namespace
} // namespace prof::stats
