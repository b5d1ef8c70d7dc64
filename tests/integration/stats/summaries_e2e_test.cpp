// `prof stats` over a folder of rank reports from per-rank summaries
// (--summaries): the same rows as the merge, summaries made once and kept
// beside the reports, a stale one made again, a damaged one named and made
// again, the reports that need every event refused, and a few hundred ranks
// from summaries by default.
#include "tests/support/build_paths.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/rank_report.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/synthetic_job.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;

class StatsSummaries : public ::testing::Test {
protected:
  void write_ranks(int ranks, uint64_t events) {
    fs::create_directories(folder_);
    for (int rank = 0; rank < ranks; ++rank)
      testing::write_rank_report(report(rank), rank, events, true);
  }
  std::string report(int rank) const {
    return (folder_ / ("r" + std::to_string(rank) + ".profrep")).string();
  }
  RunResult stats(const std::vector<std::string> &args) const {
    std::vector<std::string> command = {kProf, "stats"};
    command.insert(command.end(), args.begin(), args.end());
    command.push_back(folder_.string());
    return run_process(command, {}, std::chrono::seconds(120));
  }
  /// The stragglers report as CSV, with --summaries `how`.
  std::string stragglers(const std::string &how) const {
    const RunResult run = stats({"--summaries", how, "--report", "stragglers", "--format", "csv"});
    EXPECT_EQ(run.exit_code, 0) << run.describe();
    return run.out;
  }

  testing::ScratchDir dir_{"prof-summaries", testing::ScratchDir::Keep::on_failure};
  fs::path folder_ = fs::path(dir_.path()) / "ranks";
};

TEST_F(StatsSummaries, GivesTheMergesStragglersRows) {
  write_ranks(6, 600);
  const std::string merged = stragglers("never");
  EXPECT_FALSE(fs::exists(report(0) + ".summary")) << "the merge path makes none";
  EXPECT_EQ(stragglers("auto"), merged);
  EXPECT_FALSE(fs::exists(report(0) + ".summary")) << "auto merges fewer than 32 reports";
  const std::string summarized = stragglers("always");
  ASSERT_NE(merged.find("late: world MPI_Allreduce #9: train (rank 1)"), std::string::npos)
      << merged;
  EXPECT_EQ(summarized, merged);
  for (int rank = 0; rank < 6; ++rank)
    EXPECT_TRUE(fs::exists(report(rank) + ".summary")) << rank;
  EXPECT_EQ(stragglers("always"), merged) << "from the summaries kept";
}

// Jobs with a known cause (gen_synthetic_job's): the outliers and
// stragglers from summaries are the merge's, also where a node's clock is
// wrong and the merge moves its ranks by their collective operations.
TEST_F(StatsSummaries, FindsTheCausesTheMergeFinds) {
  for (const testing::JobCause cause :
       {testing::JobCause::slow_node, testing::JobCause::node_clock_skew}) {
    SCOPED_TRACE(testing::job_cause_name(cause));
    fs::remove_all(folder_);
    testing::SyntheticJob job;
    job.ranks = 32;
    job.cause = cause;
    testing::write_synthetic_job(job, folder_.string());
    const std::vector<std::string> args = {"--report", "outliers,stragglers", "--format", "csv"};
    std::vector<std::string> never = {"--summaries", "never"}, always = {"--summaries", "always"};
    never.insert(never.end(), args.begin(), args.end());
    always.insert(always.end(), args.begin(), args.end());
    const RunResult merged = stats(never), summarized = stats(always);
    ASSERT_EQ(merged.exit_code, 0) << merged.describe();
    ASSERT_EQ(summarized.exit_code, 0) << summarized.describe();
    EXPECT_EQ(summarized.out, merged.out);
    EXPECT_EQ(summarized.err, merged.err);
    EXPECT_NE(merged.out.find("# report outliers"), std::string::npos) << merged.out;
  }
}

TEST_F(StatsSummaries, MakesAStaleSummaryAgain) {
  write_ranks(4, 600);
  stragglers("always");
  const std::string before = testing::file_text(report(2) + ".summary");
  // Rank 2's report written again, longer: more operations for it.
  testing::write_rank_report(report(2), 2, 1200, true);
  const std::string summarized = stragglers("always");
  EXPECT_NE(testing::file_text(report(2) + ".summary"), before);
  EXPECT_EQ(summarized, stragglers("never"));
}

TEST_F(StatsSummaries, NamesADamagedSummaryAndMakesItAgain) {
  write_ranks(4, 600);
  const std::string expected = stragglers("always");
  const std::string summary = report(3) + ".summary";
  {
    std::fstream file(summary, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(40);
    file.write("\xff\xff\xff\xff", 4);
  }
  const RunResult run =
      stats({"--summaries", "always", "--report", "stragglers", "--format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_EQ(run.out, expected);
  EXPECT_EQ(run.err, "prof: warning: stats: summary '" + summary +
                         "' is damaged: made again from '" + report(3) + "'\n");
  EXPECT_EQ(stats({"--summaries", "always", "--report", "stragglers"}).err, "")
      << "made again, and whole";
}

TEST_F(StatsSummaries, RefusesWhatNeedsEveryEventInOneLine) {
  write_ranks(2, 300);
  for (const char *report : {"overlap", "critical-path", "device-utilization"}) {
    const RunResult run = stats({"--summaries", "always", "--report", report});
    EXPECT_EQ(run.exit_code, 2) << run.describe();
    EXPECT_EQ(split_lines(run.err).size(), 1u) << run.err;
    EXPECT_NE(run.err.find(report), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--summaries never"), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
  const RunResult bad = stats({"--summaries", "sometimes"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("--summaries 'sometimes' is not auto, always or never"), std::string::npos)
      << bad.err;
}

// auto reads every event where a report asked for needs them, and says
// which default reports summaries leave out.
TEST_F(StatsSummaries, AutoMergesForAReportThatNeedsEveryEvent) {
  write_ranks(32, 300);
  const RunResult overlap = stats({"--report", "overlap", "--format", "csv"});
  EXPECT_EQ(overlap.exit_code, 0) << overlap.describe();
  EXPECT_FALSE(fs::exists(report(0) + ".summary"));
  const RunResult plain = stats({});
  EXPECT_EQ(plain.exit_code, 0) << plain.describe();
  EXPECT_TRUE(fs::exists(report(0) + ".summary"));
  const std::vector<std::string> warnings = split_lines(plain.err);
  ASSERT_EQ(warnings.size(), 1u) << plain.err;
  EXPECT_NE(warnings[0].find("left out, as they need every event"), std::string::npos);
}

TEST_F(StatsSummaries, HundredsOfRanksRunFromSummariesByDefault) {
  write_ranks(300, 300);
  const RunResult run = stats({"--report", "stragglers,steps", "--format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_TRUE(fs::exists(report(299) + ".summary"));
  EXPECT_NE(run.out.find("train (rank 299)"), std::string::npos);
  EXPECT_NE(run.out.find("late: world MPI_Allreduce #9: train (rank 1)"), std::string::npos);
  const RunResult merged =
      stats({"--summaries", "never", "--report", "stragglers", "--format", "csv"});
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  EXPECT_EQ(stats({"--report", "stragglers", "--format", "csv"}).out, merged.out);
}

} // namespace
} // namespace prof::e2e
