// find_rank_outliers on synthetic jobs of 64 ranks (8 nodes) merged as
// `prof stats FOLDER` merges them: each cause is found, in the ranks it
// hit and nowhere else; a job with jitter only, or with clocks skewed per
// node, has no outlier.
#include "stats_report_fixture.hpp"

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

class RankOutliersOfReport : public testing::ReportFixture {
protected:
  RankOutliers outliers() {
    StatsScope scope;
    rank_outliers_scope(scope);
    const StatsAggregator aggregator = tool::scan_report(reader_, host_->host(), scope).aggregator;
    return find_rank_outliers(aggregator, host_->host());
  }
};

// Five processes named by their launcher's rank alone (no merge label):
// rank 2 spends three times the others' time in operators, rank 4's heap
// peaks at twice theirs.
TEST_F(RankOutliersOfReport, OperatorTimeAndHeapPeakOfRanksWithoutANode) {
  testing::TestReport r;
  for (int rank = 0; rank < 5; ++rank) {
    const uint32_t process = r.process("train (rank " + std::to_string(rank) + ")", 10 + rank);
    const uint32_t main = r.thread(process, "train", 10 + rank);
    const uint64_t op = (rank == 2 ? 3'000'000 : 1'000'000) + 1000 * static_cast<uint64_t>(rank);
    for (int i = 0; i < 10; ++i)
      r.op(main, testing::kOrigin + static_cast<uint64_t>(i) * 5'000'000, op, "aten::mm");
    r.heap(process, testing::kOrigin + 60'000'000, "heap peak", "heap/peak",
           {{"bytes", (rank == 4 ? 2ull : 1ull) << 30}});
  }
  ASSERT_NO_FATAL_FAILURE(open(r, 65536));
  const RankOutliers found = outliers();
  ASSERT_EQ(found.ranks.size(), 5u);
  EXPECT_EQ(found.ranks[2].label, "rank 2");
  EXPECT_EQ(found.ranks[2].node, "");
  ASSERT_EQ(found.findings.size(), 2u);
  EXPECT_EQ(found.findings[0].measure, OutlierMeasure::operator_time);
  EXPECT_EQ(found.findings[0].ranks, std::vector<size_t>{2});
  EXPECT_NEAR(found.findings[0].excess, 20e6, 0.1e6);
  EXPECT_EQ(found.findings[0].text,
            "rank 2 19.99ms more in operators than the typical rank (10.03ms)");
  EXPECT_EQ(found.findings[1].measure, OutlierMeasure::memory_peak);
  EXPECT_EQ(found.findings[1].ranks, std::vector<size_t>{4});
  EXPECT_EQ(found.outlier_ranks(), (std::vector<size_t>{2, 4}));
  ASSERT_TRUE(found.typical.has_value());
  EXPECT_TRUE(*found.typical == 0 || *found.typical == 1 || *found.typical == 3);
}

// In a merged report each rank's device is its own, named with the rank's
// merge label: its "Memory used" counter is that rank's.
TEST_F(RankOutliersOfReport, DeviceMemoryGoesToTheRankOfTheDevicesLabel) {
  testing::TestReport r;
  for (int rank = 0; rank < 4; ++rank) {
    const std::string label = " [node1 rank " + std::to_string(rank) + "]";
    const uint32_t process = r.process("train" + label, 10);
    const uint32_t main = r.thread(process, "train", 10);
    r.step(main, testing::kOrigin, 5'000'000, 1);
    const uint32_t device = r.track(PROF_TRACK_DEVICE, 0, "GPU 0" + label, 0);
    const uint32_t used = r.track(PROF_TRACK_COUNTER, device, "Memory used" + label, -1, "bytes");
    r.counter(used, testing::kOrigin + 1000, rank == 1 ? 40e9 : 20e9);
  }
  ASSERT_NO_FATAL_FAILURE(open(r, 65536));
  const RankOutliers found = outliers();
  ASSERT_EQ(found.findings.size(), 1u);
  EXPECT_EQ(found.findings[0].measure, OutlierMeasure::memory_peak);
  EXPECT_EQ(found.findings[0].ranks, std::vector<size_t>{1});
  EXPECT_EQ(found.findings[0].node, ""); // 1 of node1's 4 ranks
  EXPECT_EQ(found.findings[0].text.rfind("rank 1 (node1) memory peak", 0), 0u)
      << found.findings[0].text;
}

TEST(RankRuns, JoinsRunsOfRanks) {
  EXPECT_EQ(rank_runs({56, 57, 58, 59, 3, 17, 18}), "3, 17, 18, 56-59");
  EXPECT_EQ(rank_runs({}), "");
  EXPECT_EQ(rank_runs({5, 5}), "5");
}

} // namespace
} // namespace prof::stats
