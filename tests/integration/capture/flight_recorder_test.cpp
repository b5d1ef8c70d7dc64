// The flight recorder: prof keeps only the latest events of a run in its
// memory and writes them when asked (prof dump), when a process stops
// making steps (--hang-timeout) or when the application ends abnormally;
// a run that ends well writes nothing.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_steps.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <regex>
#include <thread>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

class FlightRecorder : public ::testing::Test {
protected:
  void SetUp() override {
    runtime_ = "XDG_RUNTIME_DIR=" + dir_.string();
    fs::create_directories(dir_ / "work");
  }
  std::vector<std::string> prof_args(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", runtime_, kProf});
    return args;
  }
  RunResult prof(std::vector<std::string> args) const {
    return run_process(prof_args(std::move(args)), dir_ / "work", 120s);
  }
  size_t reports() const {
    size_t count = 0;
    for (const auto &entry : fs::directory_iterator(dir_ / "work"))
      count += entry.path().extension() == ".profrep";
    return count;
  }

  prof::testing::ScratchDir scratch_{"prof-flight", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string runtime_;
};

TEST_F(FlightRecorder, DumpWritesOnlyTheLatestEventsAndCollectionGoesOn) {
  Background capture(
      prof_args({"--session-new", "fr", "--flight-recorder", "64K", "--enable-activities",
                 "*/general/operator", "-o", "fl", kTrain, "--steps", "400", "--quiet"}),
      dir_ / "work");
  const fs::path socket = dir_ / "prof" / "fr.sock";
  for (int i = 0; i < 500 && !fs::exists(socket); ++i)
    std::this_thread::sleep_for(10ms);
  // Dumps until the bound is full and the first steps are let go (how soon
  // depends on the machine's speed: the dump that first finds the bound
  // full may come before a whole step has gone).
  constexpr size_t kHeld = 64 * 1024 / sizeof(prof_event);
  std::set<uint64_t> steps;
  size_t dumps = 0, held = 0;
  while ((held < kHeld || steps.empty() || *steps.begin() <= 1) && dumps < 30) {
    std::this_thread::sleep_for(1s);
    const RunResult dumped = prof({"dump", "--session", "fr"});
    ASSERT_EQ(dumped.exit_code, 0) << dumped.describe() << capture.output();
    const fs::path path =
        dir_ / "work" / (++dumps == 1 ? "fl.profrep" : "fl-" + std::to_string(dumps) + ".profrep");
    EXPECT_EQ(dumped.out, "flight recorder dumped to " + path.string() + "\n");
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(path.string()));
    ASSERT_TRUE(reader.footer().has_value());
    held = reader.read_all_events().size();
    EXPECT_LE(held, kHeld) << "within the bound";
    const std::set<uint64_t> now = prof::testing::steps_in(reader);
    ASSERT_FALSE(now.empty());
    if (!steps.empty()) EXPECT_GT(*now.rbegin(), *steps.rbegin()) << "collection went on";
    steps = now;
  }
  ASSERT_EQ(held, kHeld) << "the bound never filled in " << dumps << " s";
  EXPECT_GT(*steps.begin(), 1u) << "the first steps were let go";

  // Shutting down ends the application with SIGTERM: an abnormal end, written too.
  EXPECT_EQ(prof({"shutdown", "--session", "fr"}).exit_code, 0);
  capture.wait();
  EXPECT_TRUE(fs::exists(dir_ / "work" / ("fl-" + std::to_string(dumps + 1) + ".profrep")))
      << capture.output();
}

TEST_F(FlightRecorder, AnAbnormalEndWritesWhatItHoldsAndANormalOneNothing) {
  const RunResult failed = prof({"--flight-recorder", "1", "--cpu-utilization", "-o", "ab",
                                 kWorkload, "--seconds", "1.5", "--exit-code", "3"});
  EXPECT_EQ(failed.exit_code, 3) << failed.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "work" / "ab.profrep").string())) << failed.describe();
  ASSERT_TRUE(reader.footer().has_value());
  const std::vector<prof_event> events = reader.read_all_events();
  ASSERT_FALSE(events.empty());
  uint64_t first = UINT64_MAX, last = 0;
  for (const prof_event &e : events) {
    first = std::min(first, e.ts);
    last = std::max(last, e.ts);
  }
  EXPECT_LE(last - first, 1'100'000'000u) << "the latest second of the run";

  const RunResult fine = prof(
      {"--flight-recorder", "1", "--cpu-utilization", "-o", "ok", kWorkload, "--seconds", "0.5"});
  EXPECT_EQ(fine.exit_code, 0) << fine.describe();
  EXPECT_FALSE(fs::exists(dir_ / "work" / "ok.profrep"));
  EXPECT_THAT(fine.out, ::testing::Not(HasSubstr("Generated")));
}

// A program that marks steps with prof.step() and stops: its flight
// recorder is written once the steps stop for --hang-timeout, while it runs.
TEST_F(FlightRecorder, AProcessThatStopsSteppingIsDumpedOnce) {
  std::ofstream(dir_ / "work" / "stalls.py") << "import prof, time\n"
                                                "for _ in range(20):\n"
                                                "    time.sleep(0.02)\n"
                                                "    prof.step()\n"
                                                "time.sleep(3)\n"
                                                "for _ in range(3):\n"
                                                "    prof.step()\n";
  const RunResult r = prof({"--flight-recorder", "8M", "--hang-timeout", "1", "--cpu-utilization",
                            "-o", "hang", "/usr/bin/python3", "stalls.py"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::smatch said;
  ASSERT_TRUE(std::regex_search(
      r.out, said,
      std::regex(R"(process \d+ made no step for ([0-9.]+) s \(its last: step 20\): flight )"
                 R"(recorder dumped to (\S+))")))
      << r.out;
  EXPECT_GE(std::stod(said[1]), 1.0);
  EXPECT_LT(std::stod(said[1]), 2.9) << "while the process still waited";
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(said[2].str()));
  const std::set<uint64_t> steps = prof::testing::steps_in(reader);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(*steps.rbegin(), 20u) << "the dump holds the last step before the stall";
  EXPECT_EQ(reports(), 1u) << "once, and nothing at the normal end";
}

// A process's forked child answers dumps with a thread of its own: the call
// the child is blocked in is open in the dump, on the child's thread.
TEST_F(FlightRecorder, AForkedChildsOpenCallIsInTheDump) {
  std::ofstream(dir_ / "work" / "forks.py") << "import os, sys, time\n"
                                               "r, w = os.pipe()\n"
                                               "child = os.fork()\n"
                                               "if child == 0:\n"
                                               "    os.close(w)\n"
                                               "    print('child', os.getpid(), flush=True)\n"
                                               "    os.read(r, 1)\n"
                                               "    os._exit(0)\n"
                                               "os.close(r)\n"
                                               "while not os.path.exists(sys.argv[1]):\n"
                                               "    time.sleep(0.05)\n"
                                               "os.write(w, b'x')\n"
                                               "os.waitpid(child, 0)\n";
  const fs::path release = dir_ / "work" / "release";
  Background capture(prof_args({"--session-new", "fk", "--flight-recorder", "8M", "--trace", "osrt",
                                "--osrt-threshold", "1000000", "-o", "fk", "--print-app-log",
                                "/usr/bin/python3", "forks.py", release.string()}),
                     dir_ / "work");
  std::smatch said;
  std::string out;
  for (int i = 0; i < 300; ++i) {
    out = capture.output();
    if (std::regex_search(out, said, std::regex(R"(child (\d+))"))) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(said.empty()) << out;
  const int child = std::stoi(said[1]);
  std::this_thread::sleep_for(500ms); // well inside its read
  const RunResult dumped = prof({"dump", "--session", "fk"});
  std::ofstream(release).put('\n');
  EXPECT_EQ(capture.wait(), 0) << capture.output();
  ASSERT_EQ(dumped.exit_code, 0) << dumped.describe();

  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "work" / "fk.profrep").string())) << dumped.describe();
  std::vector<std::string> open_in_child;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type != PROF_EVENT_SLICE || (e.flags & PROF_SLICE_UNFINISHED) == 0) continue;
    const auto track = reader.tracks().find(e.track);
    if (track != reader.tracks().end() && track->second.pid == child)
      open_in_child.push_back(std::string(reader.string(e.name)));
  }
  EXPECT_THAT(open_in_child, ::testing::Contains("read")) << "the child's blocked read()";
}

// Attached to several processes, a dump is one report per process as soon
// as it is written; a process that stops (SIGSTOP) is the one named.
TEST_F(FlightRecorder, AttachedProcessesAreDumpedOneReportEachWhenOneStops) {
  std::vector<std::unique_ptr<Background>> ranks;
  for (int rank = 0; rank < 2; ++rank)
    ranks.push_back(start_waiting({kTrain, "--steps", "100000", "--quiet"}, dir_ / "work",
                                  {runtime_, "RANK=" + std::to_string(rank), "WORLD_SIZE=2"},
                                  "rank" + std::to_string(rank)));
  Background capture(
      prof_args({"attach", "--all", "--flight-recorder", "1M", "--hang-timeout", "1.5",
                 "--enable-activities", "*/general/operator", "-o", "r%q{RANK}"}),
      dir_ / "work", {}, "prof");
  std::this_thread::sleep_for(1500ms);
  ASSERT_EQ(kill(ranks[1]->pid(), SIGSTOP), 0);
  const fs::path dumped = dir_ / "work" / "r1.profrep";
  for (int i = 0; i < 100 && !fs::exists(dumped); ++i)
    std::this_thread::sleep_for(100ms);
  kill(ranks[1]->pid(), SIGCONT);
  ASSERT_TRUE(fs::exists(dumped)) << capture.output();
  EXPECT_THAT(capture.output(),
              ::testing::ContainsRegex("process " + std::to_string(ranks[1]->pid()) +
                                       " made no step for [0-9.]+ s"));
  for (int rank = 0; rank < 2; ++rank) {
    report::ReportReader reader;
    ASSERT_TRUE(reader.open((dir_ / "work" / ("r" + std::to_string(rank) + ".profrep")).string()));
    EXPECT_EQ(reader.header().rank, std::to_string(rank));
    EXPECT_EQ(reader.header().pids, std::vector<int32_t>{ranks[rank]->pid()});
    EXPECT_FALSE(prof::testing::steps_in(reader).empty());
  }
  kill(capture.pid(), SIGINT); // detaches; the processes run on
  EXPECT_EQ(capture.wait(), 0) << capture.output();
  for (const auto &rank : ranks)
    EXPECT_EQ(kill(rank->pid(), 0), 0);
}

TEST_F(FlightRecorder, BadBoundsAndCombinationsAreExitTwo) {
  for (const std::vector<std::string> &args : std::vector<std::vector<std::string>>{
           {"--flight-recorder", "32K", "--cpu-utilization", "-o", "x", kWorkload},
           {"--flight-recorder", "10X", "--cpu-utilization", "-o", "x", kWorkload},
           {"--flight-recorder", "0", "--cpu-utilization", "-o", "x", kWorkload},
           {"--flight-recorder", "64M", "--duration", "1", "--cpu-utilization", "-o", "x",
            kWorkload},
           {"--flight-recorder", "64M", "--cpu-utilization", kWorkload},
           {"--hang-timeout", "5", "--cpu-utilization", "-o", "x", kWorkload},
           {"--flight-recorder", "64M", "--hang-timeout", "0", "--cpu-utilization", "-o", "x",
            kWorkload},
           {"dump", "--session", "none"},
       }) {
    const RunResult r = prof(args);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  }
  EXPECT_EQ(reports(), 0u);
}

} // namespace
} // namespace prof::e2e
