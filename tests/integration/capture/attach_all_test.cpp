// `prof attach --all`: every process of this user whose agent waits for prof
// (PROF_MODE=dynamic), chosen with --match, captured at once, each into a
// report of its own named from its environment, with its rank and world size.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_steps.hpp"
#include "tests/support/report_tracks.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <memory>
#include <regex>
#include <thread>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using prof::testing::device_slices;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

class AttachAll : public ::testing::Test {
protected:
  void SetUp() override { runtime_ = "XDG_RUNTIME_DIR=" + dir_.string(); }
  RunResult prof(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", runtime_, kProf});
    return run_process(args, dir_, 120s);
  }
  /// A process waiting for prof, its agent listening; `environment` added.
  Background &waiting(const std::vector<std::string> &argv, std::vector<std::string> environment) {
    environment.push_back(runtime_);
    apps_.push_back(start_waiting(argv, dir_, environment, "app" + std::to_string(apps_.size())));
    return *apps_.back();
  }
  prof::testing::ScratchDir scratch_{"prof-attach-all",
                                     prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string runtime_;
  std::vector<std::unique_ptr<Background>> apps_;
};

TEST_F(AttachAll, EachMatchingProcessGetsItsReportNamedAndRankedFromItsEnvironment) {
  std::vector<Background *> ranks;
  for (int rank = 0; rank < 3; ++rank)
    ranks.push_back(&waiting({kTrain, "--steps", "400", "--quiet"},
                             {"RANK=" + std::to_string(rank), "WORLD_SIZE=3"}));
  Background &other = waiting({kWorkload, "--seconds", "60"}, {});

  const RunResult r = prof({"attach", "--all", "--match", "gcu-train", "--enable-activities",
                            "*/general/operator", "--duration", "1", "-o", "r%q{RANK}"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("3 agents joined within"));
  // Only the reports that stay are announced, not the whole they were split from.
  EXPECT_THAT(r.out, Not(HasSubstr("Generated: " + (dir_ / "r0.profrep").string() + "\n")));
  for (int rank = 0; rank < 3; ++rank) {
    const fs::path path = dir_ / ("r" + std::to_string(rank) + ".profrep");
    EXPECT_THAT(r.out, HasSubstr("Generated: " + path.string() + " (process " +
                                 std::to_string(ranks[rank]->pid()) + ", rank " +
                                 std::to_string(rank) + ")"));
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(path.string())) << r.describe();
    EXPECT_EQ(reader.header().rank, std::to_string(rank));
    EXPECT_EQ(reader.header().world_size, "3");
    EXPECT_EQ(reader.header().pids, std::vector<int32_t>{ranks[rank]->pid()});
    EXPECT_GT(device_slices(reader), 0u) << path;
    for (const auto &[id, track] : reader.tracks()) {
      if (track.kind != PROF_TRACK_PROCESS) continue;
      EXPECT_EQ(track.pid, ranks[rank]->pid()) << track.name;
    }
    EXPECT_EQ(kill(ranks[rank]->pid(), 0), 0) << "detaching leaves each process running";
  }
  size_t reports = 0;
  for (const auto &entry : fs::directory_iterator(dir_))
    reports += entry.path().extension() == ".profrep";
  EXPECT_EQ(reports, 3u) << "one per process, the whole gone";

  // The one --match left out still waits, and can be attached to alone.
  const RunResult listed = prof({"sessions", "list"});
  EXPECT_THAT(listed.out, HasSubstr("attachable"));
  EXPECT_EQ(kill(other.pid(), 0), 0);
}

TEST_F(AttachAll, ProcessesThatWouldShareAReportOrNoneAtAllAreUsageErrors) {
  waiting({kTrain, "--steps", "400", "--quiet"}, {"RANK=0"});
  waiting({kTrain, "--steps", "400", "--quiet"}, {"RANK=0"});
  const RunResult shared = prof({"attach", "--all", "--enable-activities", "*/general/operator",
                                 "--duration", "1", "-o", "r%q{RANK}"});
  EXPECT_EQ(shared.exit_code, 2) << shared.describe();
  EXPECT_THAT(shared.err, HasSubstr("would both write"));
  const RunResult unset = prof({"attach", "--all", "--enable-activities", "*/general/operator",
                                "-o", "r%q{NOT_SET_ANYWHERE}"});
  EXPECT_EQ(unset.exit_code, 2) << unset.describe();
  EXPECT_THAT(unset.err, HasSubstr("NOT_SET_ANYWHERE"));
  const RunResult none = prof({"attach", "--all", "--match", "^nothing-runs-this$",
                               "--enable-activities", "*/general/operator"});
  EXPECT_EQ(none.exit_code, 2) << none.describe();
  EXPECT_EQ(none.err, "prof: prof attach --all: no process of this user is waiting for prof with "
                      "a command line matching '^nothing-runs-this$' (start them with "
                      "PROF_MODE=dynamic LD_PRELOAD=" +
                          kAgent + ")\n");
  const RunResult regex =
      prof({"attach", "--all", "--match", "(", "--enable-activities", "*/general/operator"});
  EXPECT_EQ(regex.exit_code, 2) << regex.describe();
  EXPECT_THAT(regex.err, HasSubstr("--match '(': expected a regular expression"));
  const RunResult alone = prof({"attach", "--match", "x", "--cpu-utilization", "1"});
  EXPECT_EQ(alone.exit_code, 2) << alone.describe();
  const RunResult launch = prof({"--all", "--cpu-utilization", kWorkload});
  EXPECT_EQ(launch.exit_code, 2) << launch.describe();
  size_t reports = 0;
  for (const auto &entry : fs::directory_iterator(dir_))
    reports += entry.path().extension() == ".profrep";
  EXPECT_EQ(reports, 0u) << "nothing half-written";
}

// --capture-steps: processes at different steps (gcu-train-step marks each
// with prof_step()) each give a report of the same steps, the next that
// every one of them begins, and run on. prof start --all does the same,
// in the foreground as the steps bound it.
TEST_F(AttachAll, CaptureStepsGivesEveryProcessTheSameSteps) {
  std::vector<Background *> ranks;
  for (int rank = 0; rank < 3; ++rank) {
    ranks.push_back(
        &waiting({kTrain, "--steps", "100000", "--quiet"}, {"RANK=" + std::to_string(rank)}));
    std::this_thread::sleep_for(400ms); // each a few steps behind the one before
  }
  for (const std::string subcommand : {"attach", "start"}) {
    SCOPED_TRACE(subcommand);
    const RunResult r =
        prof({subcommand, "--all", "--match", "gcu-train", "--capture-steps", "3",
              "--enable-activities", "*/general/operator", "-o", subcommand + "%q{RANK}"});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    std::smatch picked;
    const std::regex capturing(
        R"(capturing steps (\d+) to (\d+) \(3 processes in steps (\d+) to (\d+)\))");
    ASSERT_TRUE(std::regex_search(r.out, picked, capturing)) << r.out;
    const uint64_t first = std::stoull(picked[1]), behind = std::stoull(picked[3]),
                   ahead = std::stoull(picked[4]);
    EXPECT_EQ(std::stoull(picked[2]), first + 2);
    EXPECT_LT(behind, ahead) << "the processes were at different steps";
    EXPECT_EQ(first, ahead + 1) << "the next step the furthest process begins";
    EXPECT_THAT(r.out, HasSubstr("step " + std::to_string(first + 2) + " ended in every process"));
    for (int rank = 0; rank < 3; ++rank) {
      const fs::path path = dir_ / (subcommand + std::to_string(rank) + ".profrep");
      report::ReportReader reader;
      ASSERT_TRUE(reader.open(path.string())) << r.describe();
      EXPECT_EQ(prof::testing::steps_in(reader), (std::set<uint64_t>{first, first + 1, first + 2}))
          << path << "\n"
          << r.out;
      EXPECT_GT(device_slices(reader), 0u) << path;
      // Its own steps' time, not the others': the report starts and ends with them.
      ASSERT_TRUE(reader.footer().has_value());
      for (const prof_event &e : reader.read_all_events()) {
        EXPECT_GE(e.ts, reader.header().session_start_ns);
        EXPECT_LT(e.ts, reader.footer()->end_ns);
      }
      EXPECT_EQ(kill(ranks[rank]->pid(), 0), 0) << "the processes run on";
    }
  }
}

// prof start --all without a bound returns once every agent collects; the
// capture goes on in the background until prof stop, which prints the
// reports it wrote, one per process.
TEST_F(AttachAll, StartAllCollectsInTheBackgroundUntilStop) {
  std::vector<Background *> ranks;
  for (int rank = 0; rank < 2; ++rank)
    ranks.push_back(&waiting({kTrain, "--steps", "400", "--quiet"},
                             {"RANK=" + std::to_string(rank), "WORLD_SIZE=2"}));
  const RunResult started = prof({"start", "--all", "--enable-activities", "*/general/operator",
                                  "--session-new", "job", "-o", "bg%q{RANK}"});
  ASSERT_EQ(started.exit_code, 0) << started.describe();
  EXPECT_THAT(started.out, HasSubstr("2 agents joined within"));
  EXPECT_THAT(started.out, HasSubstr("session job collects in the background; 'prof stop "
                                     "--session job' ends it and writes the reports"));
  const RunResult listed = prof({"sessions", "list"});
  EXPECT_THAT(listed.out, ::testing::ContainsRegex("job .* running")) << listed.out;
  std::this_thread::sleep_for(500ms);

  const RunResult stopped = prof({"stop", "--session", "job"});
  ASSERT_EQ(stopped.exit_code, 0) << stopped.describe();
  EXPECT_THAT(stopped.out, HasSubstr("the capture ends"));
  for (int rank = 0; rank < 2; ++rank) {
    const fs::path path = dir_ / ("bg" + std::to_string(rank) + ".profrep");
    EXPECT_THAT(stopped.out, HasSubstr("Generated: " + path.string() + " (process " +
                                       std::to_string(ranks[rank]->pid()) + ", rank " +
                                       std::to_string(rank) + ")"));
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(path.string())) << stopped.describe();
    ASSERT_TRUE(reader.footer().has_value()) << "complete once prof stop returns";
    EXPECT_EQ(reader.header().world_size, "2");
    EXPECT_GT(device_slices(reader), 0u) << path;
    EXPECT_FALSE(prof::testing::steps_in(reader).empty()) << path;
    EXPECT_EQ(kill(ranks[rank]->pid(), 0), 0) << "the processes run on";
  }
  const RunResult after = prof({"sessions", "list"});
  EXPECT_THAT(after.out, ::testing::Not(HasSubstr("job "))) << "the session ended";
  // Detached, the agents wait again: a second capture can take them.
  const RunResult again = prof({"attach", "--all", "--enable-activities", "*/general/operator",
                                "--duration", "0.3", "-o", "again%q{RANK}"});
  EXPECT_EQ(again.exit_code, 0) << again.describe();
  EXPECT_TRUE(fs::exists(dir_ / "again1.profrep"));
}

// What prof start --all cannot take is exit 2, before or after it forks,
// and leaves neither report nor session behind.
TEST_F(AttachAll, StartAllRefusesBadInputWithExitTwo) {
  const Background &app = waiting({kTrain, "--steps", "400", "--quiet"}, {"RANK=0"});
  const std::vector<std::vector<std::string>> bad = {
      {"start", "--trace", "osrt"},
      {"start", "--all", "--session", "x", "--enable-activities", "*/general/operator"},
      {"start", "--all", "--dynamic", "on", "--enable-activities", "*/general/operator"},
      {"start", "--all", "--kill", "--enable-activities", "*/general/operator"},
      {"start", "--all", "--enable-activities", "*/general/operator", "-o", "x%q{NOT_SET_HERE}"},
  };
  for (const auto &args : bad) {
    const RunResult r = prof(args);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  }
  for (const auto &entry : fs::directory_iterator(dir_))
    EXPECT_NE(entry.path().extension(), ".profrep") << entry.path();
  const RunResult listed = prof({"sessions", "list"});
  EXPECT_THAT(listed.out, HasSubstr("attachable")) << "the process still waits, unattached";
  EXPECT_EQ(kill(app.pid(), 0), 0);
}

// Without a per-process name the processes share one report, as a list of
// pids does.
TEST_F(AttachAll, OneNameGivesOneReportOfThemAll) {
  const Background &a = waiting({kTrain, "--steps", "400", "--quiet"}, {"RANK=0"});
  const Background &b = waiting({kTrain, "--steps", "400", "--quiet"}, {"RANK=1"});
  const RunResult r = prof({"attach", "--all", "--enable-activities", "*/general/operator",
                            "--duration", "0.5", "-o", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "both.profrep").string()));
  EXPECT_THAT(reader.header().pids, ::testing::UnorderedElementsAre(a.pid(), b.pid()));
  EXPECT_EQ(reader.header().rank, "") << "several processes: no one rank";
}

} // namespace
} // namespace prof::e2e
