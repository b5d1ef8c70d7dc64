// `prof stats FOLDER --report outliers` and `--report stragglers`, and
// `prof merge --ranks outliers`, on synthetic jobs of many ranks with one
// known cause each (tests/support/synthetic_job.hpp): the cause's ranks are
// named and no other; jitter alone and clocks skewed per node name none.
// 1024 ranks (128 nodes) by default, a few seconds a cause on 2 cores (256
// in sanitizer builds); PROF_SCALE_RANKS=4096 runs the full size.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/synthetic_job.hpp"
#include <prof/launcher_rank.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

namespace prof::e2e {
namespace {

using prof::testing::JobCause;
using prof::testing::Json;
using prof::testing::JsonParser;

int job_ranks() {
  const char *ranks = std::getenv("PROF_SCALE_RANKS");
  return ranks != nullptr && std::atoi(ranks) >= 16 ? std::atoi(ranks) : PROF_SCALE_DEFAULT_RANKS;
}

/// "3, 17, 56-63" as ranks.
std::set<int> parse_runs(const std::string &text) {
  std::set<int> ranks;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find(", ", at);
    if (end == std::string::npos) end = text.size();
    const std::string run = text.substr(at, end - at);
    const size_t dash = run.find('-');
    const int first = std::stoi(run.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(run.substr(dash + 1));
    for (int r = first; r <= last; ++r)
      ranks.insert(r);
    at = end + 2;
  }
  return ranks;
}

class ScaleE2E : public ::testing::TestWithParam<JobCause> {
protected:
  void SetUp() override {
    job_.ranks = job_ranks();
    job_.cause = GetParam();
    prof::testing::write_synthetic_job(job_, folder_);
    const std::vector<int> hit = prof::testing::affected_ranks(job_);
    expected_ = std::set<int>(hit.begin(), hit.end());
  }
  RunResult prof(const std::vector<std::string> &args) {
    std::vector<std::string> argv{kProf};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, scratch_.path(), std::chrono::seconds(300));
  }
  Json report(const std::string &name) {
    const RunResult r = prof({"stats", folder_, "--report", name, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return JsonParser::parse(r.out)[name];
  }

  prof::testing::ScratchDir scratch_{"prof-scale", prof::testing::ScratchDir::Keep::on_failure};
  const std::string folder_ = scratch_.file("job");
  prof::testing::SyntheticJob job_;
  std::set<int> expected_;
};

TEST_P(ScaleE2E, OutliersNameTheCauseAndNothingElse) {
  const Json outliers = report("outliers");
  std::set<int> named;
  std::set<std::string> nodes;
  for (const Json &row : outliers["rows"].items) {
    for (const int rank : parse_runs(row["Ranks"].text))
      named.insert(rank);
    if (!row["Node"].text.empty()) nodes.insert(row["Node"].text);
  }
  EXPECT_EQ(named, expected_) << outliers["notes"].items.size() << " notes";
  if (GetParam() == JobCause::slow_node) {
    EXPECT_EQ(nodes.size(), 1u); // the node, not 8 ranks apart
  } else {
    EXPECT_TRUE(nodes.empty());
  }
}

TEST_P(ScaleE2E, StragglersNameTheLateRanksTogether) {
  const Json stragglers = report("stragglers");
  std::string late;
  for (const Json &note : stragglers["notes"].items)
    if (note.text.starts_with("late ranks: ")) late += note.text + "\n";
  if (expected_.empty()) {
    EXPECT_EQ(late, "");
    return;
  }
  ASSERT_NE(late, "");
  // One line for the whole cause, naming its ranks.
  EXPECT_EQ(late.find('\n'), late.size() - 1) << late;
  // Its ranks, as runs ("ranks 768-775") or one by one.
  const std::string first = std::to_string(*expected_.begin());
  const std::string last = std::to_string(*expected_.rbegin());
  EXPECT_NE(late.find(first), std::string::npos) << late;
  EXPECT_NE(late.find(last), std::string::npos) << late;
  // The table keeps the ranks ever last by 1 ms: no more than the cause's.
  EXPECT_LE(stragglers["rows"].items.size(), expected_.size() + 1);
}

TEST_P(ScaleE2E, MergeOfTheOutliersKeepsThemAndTheTypicalRank) {
  if (expected_.empty()) {
    const RunResult r = prof({"merge", "--ranks", "outliers", "-o", "sel.profrep", folder_});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
  } else {
    const RunResult r = prof({"merge", "--ranks", "outliers", "-o", "sel.perfetto-trace", folder_});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_GT(std::filesystem::file_size(scratch_.file("sel.perfetto-trace")), 0u);
    ASSERT_EQ(prof({"merge", "--ranks", "outliers", "-o", "sel.profrep", folder_}).exit_code, 0);
  }
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(scratch_.file("sel.profrep")));
  std::set<int> ranks;
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_PROCESS)
      ranks.insert(rank_in_track_name(track.name.substr(0, track.name.rfind(" ["))));
  EXPECT_EQ(ranks.size(), expected_.size() + 1); // and the typical rank
  for (const int rank : expected_)
    EXPECT_TRUE(ranks.count(rank)) << rank;
}

INSTANTIATE_TEST_SUITE_P(Causes, ScaleE2E,
                         ::testing::Values(JobCause::none, JobCause::slow_rank, JobCause::slow_node,
                                           JobCause::periodic_rank, JobCause::slow_link,
                                           JobCause::node_clock_skew),
                         [](const ::testing::TestParamInfo<JobCause> &info) {
                           std::string name = prof::testing::job_cause_name(info.param);
                           std::erase(name, '-');
                           return name;
                         });

TEST(ScaleE2EUsage, BadRanksAreOneLineAndExitTwo) {
  prof::testing::ScratchDir scratch("prof-scale");
  prof::testing::SyntheticJob job;
  job.ranks = 16;
  prof::testing::write_synthetic_job(job, scratch.file("job"));
  for (const auto &[ranks, message] : std::vector<std::pair<std::string, std::string>>{
           {"3,x", "prof: merge: --ranks '3,x': 'x' is no rank"},
           {"9-2", "prof: merge: --ranks '9-2': '9-2' runs backwards"},
           {"99", "prof: merge: --ranks: no report of rank 99 among the 16 given"}}) {
    const RunResult r = run_process(
        {kProf, "merge", "--ranks", ranks, "-o", scratch.file("o.profrep"), scratch.file("job")});
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(scratch.file("o.profrep")));
  }
}

} // namespace
} // namespace prof::e2e
