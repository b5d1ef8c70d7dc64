// The capture paths that split one capture of several processes by process,
// with gcu-train-step processes sharing one simulated device: `attach --all`
// with a report per rank, a flight-recorder dump, and `--capture-steps`. Each
// part holds exactly the device work its own process launched (the pid in
// each slice's correlation id), and a merge of the parts counts every slice
// once and the device's shared tracks once.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_steps.hpp"
#include "tests/support/report_tracks.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include "core/report/report_merge.hpp"
#include "core/report/report_reader.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <memory>
#include <thread>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using prof::testing::DeviceWork;
using namespace std::chrono_literals;

class DeviceOwnerPaths : public ::testing::Test {
protected:
  void SetUp() override {
    runtime_ = "XDG_RUNTIME_DIR=" + dir_.string();
    for (int rank = 0; rank < 3; ++rank)
      ranks_.push_back(start_waiting({kTrain, "--steps", "100000", "--quiet"}, dir_,
                                     {runtime_, "RANK=" + std::to_string(rank), "WORLD_SIZE=3"},
                                     "rank" + std::to_string(rank)));
  }
  std::vector<std::string> prof_args(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", runtime_, kProf});
    return args;
  }
  RunResult prof(std::vector<std::string> args) const {
    return run_process(prof_args(std::move(args)), dir_, 120s);
  }
  std::string file(const std::string &name) const { return (dir_ / name).string(); }

  /// Rank r's part is `prefix`r.profrep: it holds device work of its own
  /// process only, on tracks that process owns; the merge of the parts
  /// holds each part's work once and the device's shared tracks once.
  void expect_own_work_merged_once(const std::string &prefix, const std::string &output) {
    std::vector<std::string> parts;
    std::map<int, size_t> launched;
    size_t own_events = 0, shared_events = 0;
    for (size_t rank = 0; rank < ranks_.size(); ++rank) {
      const int pid = ranks_[rank]->pid();
      parts.push_back(file(prefix + std::to_string(rank) + ".profrep"));
      SCOPED_TRACE(parts.back());
      report::ReportReader reader;
      ASSERT_TRUE(reader.open(parts.back())) << output;
      const DeviceWork part = prof::testing::device_work(reader);
      ASSERT_EQ(part.by_launcher.size(), 1u) << "only one process's work";
      ASSERT_GT(part.by_launcher.count(pid), 0u) << "its own process's";
      EXPECT_EQ(part.by_owner, part.by_launcher) << "on the tracks that process owns";
      launched[pid] = part.by_launcher.at(pid);
      if (shared_events == 0) shared_events = part.shared_events;
      EXPECT_EQ(part.shared_events, shared_events) << "the device's tracks alike in every part";
      own_events += part.events - part.shared_events;
    }
    const std::string merged = file(prefix + "-merged.profrep");
    report::write_merge(report::plan_merge(parts), merged, false);
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(merged));
    const DeviceWork all = prof::testing::device_work(reader);
    EXPECT_EQ(all.by_owner, launched) << "each process's kernels once";
    EXPECT_EQ(all.events, own_events + shared_events) << "the device's tracks once";
  }

  prof::testing::ScratchDir scratch_{"prof-device-owner-paths",
                                     prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string runtime_;
  std::vector<std::unique_ptr<Background>> ranks_;
};

// `prof attach --all -o r%q{RANK}`: a report per rank, split from one capture.
TEST_F(DeviceOwnerPaths, AttachAllGivesEachRankItsOwnKernels) {
  const RunResult r = prof({"attach", "--all", "--match", "gcu-train", "--enable-activities", "all",
                            "--duration", "1", "-o", "r%q{RANK}"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  expect_own_work_merged_once("r", r.describe());
}

// A flight recorder's dump of several processes: a report per process.
TEST_F(DeviceOwnerPaths, FlightRecorderDumpGivesEachRankItsOwnKernels) {
  Background capture(
      prof_args({"attach", "--all", "--match", "gcu-train", "--flight-recorder", "8M",
                 "--session-new", "fr", "--enable-activities", "all", "-o", "f%q{RANK}"}),
      dir_, {}, "prof");
  std::this_thread::sleep_for(1500ms);
  const RunResult dumped = prof({"dump", "--session", "fr"});
  ASSERT_EQ(dumped.exit_code, 0) << dumped.describe() << capture.output();
  // prof splits the dump per process once it is written: a report each.
  const auto generated = [&capture] {
    size_t lines = 0;
    const std::string out = capture.output();
    for (size_t at = out.find("Generated: "); at != std::string::npos;
         at = out.find("Generated: ", at + 1))
      ++lines;
    return lines;
  };
  for (int i = 0; i < 100 && generated() < 3; ++i)
    std::this_thread::sleep_for(100ms);
  ASSERT_EQ(generated(), 3u) << dumped.describe() << capture.output();
  expect_own_work_merged_once("f", dumped.describe());
  kill(capture.pid(), SIGINT); // detaches; the processes run on
  EXPECT_EQ(capture.wait(), 0) << capture.output();
}

// `--capture-steps`: the same steps of every process, a report each.
TEST_F(DeviceOwnerPaths, CaptureStepsGivesEachRankItsOwnKernels) {
  const RunResult r = prof({"attach", "--all", "--match", "gcu-train", "--capture-steps", "2",
                            "--enable-activities", "all", "-o", "s%q{RANK}"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::set<uint64_t> steps;
  for (int rank = 0; rank < 3; ++rank) {
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(file("s" + std::to_string(rank) + ".profrep"))) << r.describe();
    if (rank == 0) steps = prof::testing::steps_in(reader);
    EXPECT_EQ(prof::testing::steps_in(reader), steps) << "the same steps in every part";
  }
  EXPECT_EQ(steps.size(), 2u);
  expect_own_work_merged_once("s", r.describe());
}

} // namespace
} // namespace prof::e2e
