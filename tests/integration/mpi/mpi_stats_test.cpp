// `prof stats` on a folder of rank reports, and spread over processes by
// an MPI launcher (`mpirun -np K prof stats ...`): each process analyses a
// share of the reports, rank 0 gathers the results through MPI and prints
// exactly what one process prints.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/rank_report.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const std::string kMpirun = PROF_MPIRUN;
constexpr int kRanks = 8;

class MpiStats : public ::testing::Test {
protected:
  void SetUp() override {
    if (kMpirun.empty()) GTEST_SKIP() << "no mpirun (install openmpi-bin)";
    fs::create_directory(reports_);
    fs::create_directory(temporary_);
    for (int rank = 0; rank < kRanks; ++rank)
      testing::write_rank_report((reports_ / ("r" + std::to_string(rank) + ".profrep")).string(),
                                 rank, 30'000);
  }
  /// `prof stats ARGS` alone (its temporary files in temporary_).
  RunResult alone(const std::vector<std::string> &args) const {
    std::vector<std::string> command = {"/usr/bin/env", "TMPDIR=" + temporary_.string(), kProf,
                                        "stats"};
    command.insert(command.end(), args.begin(), args.end());
    return run_process(command, dir_, std::chrono::seconds(120));
  }
  /// `mpirun -np PROCESSES prof stats ARGS`.
  RunResult spread(int processes, const std::vector<std::string> &args) const {
    // Open MPI's libraries leave their objects allocated at MPI_Finalize
    // (some in components already unloaded, beyond any suppression): in
    // sanitizer builds the leak check is for the tests without MPI.
    const char *asan = std::getenv("ASAN_OPTIONS");
    std::vector<std::string> command = {"/usr/bin/env",
                                        "TMPDIR=" + temporary_.string(),
                                        "ASAN_OPTIONS=" + std::string(asan ? asan : "") +
                                            ":detect_leaks=0",
                                        kMpirun,
                                        "--allow-run-as-root",
                                        "--oversubscribe",
                                        "-np",
                                        std::to_string(processes),
                                        kProf,
                                        "stats"};
    command.insert(command.end(), args.begin(), args.end());
    return run_process(command, dir_, std::chrono::seconds(120));
  }
  /// `text` without the steps report's notes on a step's critical path
  /// ("step N: T; on its critical path: ..." or "...; T of it waiting for ..."),
  /// in any format's quoting.
  static std::string without_critical_path_lines(const std::string &text) {
    static const std::regex line(
        R"rx((<li>|# |")?step [0-9]+: [^\n"<]*(on its critical path|of it waiting for)[^\n"<]*(</li>\n|"(, )?|\n))rx");
    return std::regex_replace(text, line, "");
  }
  void expect_same(int processes, const std::vector<std::string> &args) const {
    SCOPED_TRACE(std::to_string(processes) + " processes");
    const RunResult one = alone(args);
    ASSERT_EQ(one.exit_code, 0) << one.describe();
    ASSERT_FALSE(one.out.empty());
    const RunResult many = spread(processes, args);
    ASSERT_EQ(many.exit_code, 0) << many.describe();
    if (many.err.find("names no step's critical path here") == std::string::npos) {
      EXPECT_EQ(many.out, one.out);
    } else {
      // Over a folder, each process holds a share of the events: the steps
      // report's lines on its slow steps' critical paths come from one
      // process alone, and are all that differ.
      EXPECT_EQ(without_critical_path_lines(many.out), without_critical_path_lines(one.out));
      EXPECT_NE(one.out.find("on its critical path"), std::string::npos) << one.out;
    }
    // Not the fallback in which rank 0 does everything alone.
    EXPECT_EQ(many.err.find("alone"), std::string::npos) << many.err;
    // Each process's temporary merge is gone.
    EXPECT_TRUE(fs::is_empty(temporary_));
  }

  testing::ScratchDir scratch_{"prof-mpi-stats", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  const fs::path reports_{dir_ / "ranks"};
  const fs::path temporary_{dir_ / "tmp"};
};

TEST_F(MpiStats, AFolderOfRankReportsIsAnalysedAsTheirMerge) {
  const RunResult merged =
      run_process({kProf, "merge", "-o", (dir_ / "all").string(), reports_.string()}, dir_);
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  for (const std::string reports :
       {"collectives,stragglers,overlap,idle", "gcu-activity,ranges,kernels"}) {
    const RunResult folder = alone({"-r", reports, reports_.string()});
    ASSERT_EQ(folder.exit_code, 0) << folder.describe();
    const RunResult file = alone({"-r", reports, (dir_ / "all.profrep").string()});
    ASSERT_EQ(file.exit_code, 0) << file.describe();
    EXPECT_EQ(folder.out, file.out);
    if (reports.starts_with("collectives"))
      EXPECT_NE(folder.out.find("train (rank 7) [node0]"), std::string::npos) << folder.out;
    EXPECT_TRUE(fs::is_empty(temporary_)) << "the temporary merge is removed";
  }
}

TEST_F(MpiStats, SpreadOverProcessesItPrintsExactlyWhatOneProcessPrints) {
  const std::string cross = "collectives,stragglers,overlap,idle";
  expect_same(3, {"-r", cross, reports_.string()});                         // uneven shares
  expect_same(kRanks, {"--format", "csv", "-r", cross, reports_.string()}); // one report each
  expect_same(2, {reports_.string()});                                      // the default reports
  expect_same(3, {"--format", "json", "-r", "gcu-activity,kernels,collectives", reports_.string()});
  expect_same(3, {"--format", "html", "-r", cross, reports_.string()});
  // More processes than reports: some have none.
  expect_same(10, {"--format", "csv", "-r", "stragglers", reports_.string()});
}

// A framework's operators and steps (rank reports with `framework`): each
// process's operators and step spans reach rank 0 whole.
TEST_F(MpiStats, OperatorsAndStepsSpreadOverProcesses) {
  const fs::path framework = dir_ / "framework";
  fs::create_directory(framework);
  for (int rank = 0; rank < 4; ++rank)
    testing::write_rank_report((framework / ("r" + std::to_string(rank) + ".profrep")).string(),
                               rank, 5'000, true);
  expect_same(3, {"-r", "steps,torch-ops", framework.string()});
  expect_same(
      2, {"--format", "csv", "--group-by", "shapes", "-r", "torch-ops,steps", framework.string()});
  expect_same(3, {"--format", "html", "-r", "steps", framework.string()});
  const RunResult merged =
      run_process({kProf, "merge", "-o", (dir_ / "all").string(), framework.string()}, dir_);
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  expect_same(3, {"--format", "json", "-r", "steps,torch-ops", (dir_ / "all.profrep").string()});

  // Rank 1 is 2 ms late to every 10th step's all-reduce: the slowest then.
  const RunResult csv = alone({"--format", "csv", "-r", "steps", framework.string()});
  ASSERT_EQ(csv.exit_code, 0) << csv.describe();
  size_t late_steps = 0;
  for (const std::string &line : split_lines(csv.out))
    if (line.starts_with("10,4,") || line.starts_with("20,4,") || line.starts_with("30,4,")) {
      ++late_steps;
      EXPECT_TRUE(line.ends_with(",train (rank 1) [node0] (10001)")) << line;
    }
  EXPECT_EQ(late_steps, 3u) << csv.out;
}

// Without libprof-stats-mpi (a build without MPI's headers), rank 0 says so
// once and analyses everything alone; the others print nothing.
TEST_F(MpiStats, WithoutTheMpiModuleRankZeroWorksAlone) {
  const RunResult one = alone({"--format", "csv", "-r", "stragglers", reports_.string()});
  ASSERT_EQ(one.exit_code, 0) << one.describe();
  const RunResult r =
      run_process({"/usr/bin/env", "TMPDIR=" + temporary_.string(),
                   "PROF_STATS_MPI_PATH=" + (dir_ / "no-such-module.so").string(), kMpirun,
                   "--allow-run-as-root", "--oversubscribe", "-np", "3", kProf, "stats", "--format",
                   "csv", "-r", "stragglers", reports_.string()},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, one.out);
  size_t warnings = 0;
  for (const std::string &line : split_lines(r.err))
    if (line.find("analyses every report alone") != std::string::npos) {
      ++warnings;
      EXPECT_NE(line.find("no-such-module.so"), std::string::npos) << line;
    }
  EXPECT_EQ(warnings, 1u) << r.err;
}

// From per-rank summaries (--summaries always): each process makes its
// share's, rank 0 combines them all; `prof stats --mpi 2` runs the launcher.
TEST_F(MpiStats, SummariesAreMadeByEachProcessAndCombinedByRankZero) {
  const std::vector<std::string> args = {
      "--summaries",    "always", "--format", "csv", "-r", "stragglers,collectives,steps",
      reports_.string()};
  const RunResult one = alone(args);
  ASSERT_EQ(one.exit_code, 0) << one.describe();
  EXPECT_NE(one.out.find("train (rank 7) [node0]"), std::string::npos) << one.out;
  const auto remove_summaries = [this] {
    for (int rank = 0; rank < kRanks; ++rank)
      fs::remove(reports_ / ("r" + std::to_string(rank) + ".profrep.summary"));
  };
  remove_summaries();
  const RunResult many = spread(3, args);
  ASSERT_EQ(many.exit_code, 0) << many.describe();
  EXPECT_EQ(many.out, one.out);
  for (int rank = 0; rank < kRanks; ++rank)
    EXPECT_TRUE(fs::exists(reports_ / ("r" + std::to_string(rank) + ".profrep.summary"))) << rank;

  remove_summaries();
  const char *asan = std::getenv("ASAN_OPTIONS");
  std::vector<std::string> command = {"/usr/bin/env",
                                      "PROF_MPIRUN=" + kMpirun,
                                      "ASAN_OPTIONS=" + std::string(asan ? asan : "") +
                                          ":detect_leaks=0",
                                      kProf,
                                      "stats",
                                      "--mpi",
                                      "2"};
  command.insert(command.end(), args.begin(), args.end());
  const RunResult launched = run_process(command, dir_, std::chrono::seconds(120));
  ASSERT_EQ(launched.exit_code, 0) << launched.describe();
  EXPECT_EQ(launched.out, one.out);
}

TEST_F(MpiStats, OneReportIsSharedByItsChunks) {
  const RunResult merged =
      run_process({kProf, "merge", "-o", (dir_ / "all").string(), reports_.string()}, dir_);
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  expect_same(
      3, {"-r", "collectives,stragglers,overlap,idle,kernels", (dir_ / "all.profrep").string()});
}

TEST_F(MpiStats, AnUnreadableReportIsOneErrorAndExitTwo) {
  {
    std::ofstream bad(reports_ / "r3.profrep", std::ios::trunc);
    bad << "not a report";
  }
  const RunResult r = spread(3, {reports_.string()});
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.out;
  size_t lines = 0;
  for (const std::string &line : split_lines(r.err))
    if (line.rfind("prof: ", 0) == 0) {
      ++lines;
      EXPECT_NE(line.find("r3.profrep"), std::string::npos) << line;
    }
  EXPECT_EQ(lines, 1u) << r.err;
  EXPECT_EQ(alone({reports_.string()}).exit_code, 2);
}

TEST_F(MpiStats, ABadOptionIsSaidOnce) {
  const RunResult r = spread(3, {"--no-such-option", reports_.string()});
  EXPECT_NE(r.exit_code, 0);
  size_t lines = 0;
  for (const std::string &line : split_lines(r.err))
    lines += line.rfind("prof: ", 0) == 0;
  EXPECT_EQ(lines, 1u) << r.err;
}

} // namespace
} // namespace prof::e2e
