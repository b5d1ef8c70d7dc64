// The trigger folder (PROF_TRIGGER_DIR, prof trigger): a request written
// into the folder the waiting agents watch is carried out once, by one prof
// per host, for exactly the processes that watch it; anything else in the
// folder is ignored, counted and logged, and the processes run on.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_steps.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include "core/report/report_reader.hpp"
#include "tests/support/file_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <memory>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

class TriggerFolder : public ::testing::Test {
protected:
  void SetUp() override {
    runtime_ = "XDG_RUNTIME_DIR=" + dir_.string();
    fs::create_directories(requests_);
  }
  RunResult prof(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", runtime_, kProf});
    return run_process(args, dir_, 120s);
  }
  /// A process waiting for prof; `watching`: with PROF_TRIGGER_DIR.
  Background &waiting(int rank, bool watching) {
    std::vector<std::string> environment{runtime_, "RANK=" + std::to_string(rank)};
    if (watching) environment.push_back("PROF_TRIGGER_DIR=" + requests_.string());
    apps_.push_back(start_waiting({kTrain, "--steps", "100000", "--quiet"}, dir_, environment,
                                  "app" + std::to_string(apps_.size())));
    return *apps_.back();
  }
  /// The session folder's files named trigger-*<suffix>.
  std::vector<fs::path> trigger_files(const std::string &suffix) const {
    std::vector<fs::path> found;
    for (const auto &entry : fs::directory_iterator(dir_ / "prof"))
      if (entry.path().filename().string().starts_with("trigger-") &&
          entry.path().filename().string().ends_with(suffix))
        found.push_back(entry.path());
    return found;
  }
  void write_file(const std::string &name, const std::string &text) const {
    std::ofstream(requests_ / name) << text;
    fs::permissions(requests_ / name, fs::perms::owner_read | fs::perms::owner_write);
  }

  prof::testing::ScratchDir scratch_{"prof-trigger", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  const fs::path requests_{dir_ / "requests"};
  std::string runtime_;
  std::vector<std::unique_ptr<Background>> apps_;
};

TEST_F(TriggerFolder, ARequestCapturesTheSameStepsInEveryWatchingProcessOnce) {
  // Written before the processes started: not for them.
  const RunResult old_request =
      prof({"trigger", "--trigger-dir", requests_.string(), "--capture-steps", "1",
            "--enable-activities", "*/general/operator", "-o", "old%q{RANK}"});
  ASSERT_EQ(old_request.exit_code, 0) << old_request.describe();
  Background &rank0 = waiting(0, true);
  Background &rank1 = waiting(1, true);
  Background &other = waiting(2, false);
  std::this_thread::sleep_for(1500ms); // the agents have looked once

  write_file("broken.json", "{\"id\": ");
  write_file("unknown.json", R"({"id":"x","capture_steps":1,"output":"x","kill":true})");
  const RunResult r = prof({"trigger", "--trigger-dir", requests_.string(), "--capture-steps", "2",
                            "--enable-activities", "*/general/operator", "-o", "r%q{RANK}"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("the first waiting agent of each host watching it starts prof"));

  // One prof carries it out; its console says when it is done.
  fs::path console;
  for (int i = 0; i < 300; ++i) {
    for (const fs::path &log : trigger_files(".log"))
      if (prof::testing::file_text(log).find("prof detached") != std::string::npos) console = log;
    if (!console.empty()) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(console.empty()) << "no triggered capture finished";
  const std::string text = prof::testing::file_text(console);
  EXPECT_THAT(text, HasSubstr("2 agents joined"));
  std::set<uint64_t> steps[2];
  for (int rank = 0; rank < 2; ++rank) {
    report::ReportReader reader;
    const fs::path path = dir_ / ("r" + std::to_string(rank) + ".profrep");
    ASSERT_TRUE(reader.open(path.string())) << text;
    ASSERT_TRUE(reader.footer().has_value()) << path;
    steps[rank] = prof::testing::steps_in(reader);
    EXPECT_EQ(steps[rank].size(), 2u) << path << "\n" << text;
  }
  EXPECT_EQ(steps[0], steps[1]) << "the same steps in every process\n" << text;
  EXPECT_FALSE(fs::exists(dir_ / "r2.profrep")) << "the process not watching is left out";
  EXPECT_FALSE(fs::exists(dir_ / "old0.profrep")) << "a request older than the process";

  // Each agent ignored the two bad files and logged why; one of them started prof.
  size_t started = 0;
  for (const Background *app : {&rank0, &rank1}) {
    const std::string log = prof::testing::file_text(
        dir_ / "prof" / ("trigger-" + std::to_string(app->pid()) + ".log"));
    EXPECT_THAT(log, HasSubstr("broken.json: not a capture request: line 1"));
    EXPECT_THAT(log, HasSubstr("unknown.json: not a capture request: unknown key \"kill\""));
    EXPECT_THAT(log, HasSubstr("(2 ignored so far)"));
    started += log.find("captures this host's processes") != std::string::npos;
  }
  EXPECT_EQ(started, 1u) << "one prof per host";
  const RunResult listed = prof({"sessions", "list"});
  EXPECT_THAT(listed.out, ::testing::Not(HasSubstr("attached"))) << "every process detached";

  // Once per id: nothing starts again.
  std::this_thread::sleep_for(2500ms);
  EXPECT_EQ(trigger_files(".claim").size(), 1u);
  for (const Background *app : {&rank0, &rank1, &other})
    EXPECT_EQ(kill(app->pid(), 0), 0) << "the processes run on";
}

TEST_F(TriggerFolder, RequestsOfAnotherUserOrThatOthersMayWriteAreIgnored) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to make a file another user owns";
  Background &app = waiting(0, true);
  std::this_thread::sleep_for(1500ms);
  const std::string request =
      R"({"id":"foreign","capture_steps":1,"options":["--enable-activities","all"],"output":"f"})";
  write_file("foreign.json", request);
  ASSERT_EQ(chown((requests_ / "foreign.json").c_str(), 65534, 65534), 0);
  std::ofstream(requests_ / "open.json") << request;
  chmod((requests_ / "open.json").c_str(), 0666);
  const fs::path log = dir_ / "prof" / ("trigger-" + std::to_string(app.pid()) + ".log");
  std::string text;
  for (int i = 0; i < 50 && text.find("2 ignored") == std::string::npos; ++i) {
    std::this_thread::sleep_for(100ms);
    text = prof::testing::file_text(log);
  }
  EXPECT_THAT(text, HasSubstr("foreign.json: owned by user 65534"));
  EXPECT_THAT(text, HasSubstr("open.json: others may write it"));
  EXPECT_TRUE(trigger_files(".claim").empty()) << "neither was acted on";
  EXPECT_EQ(kill(app.pid(), 0), 0);
}

TEST_F(TriggerFolder, BadTriggerCommandsAreExitTwoAndWriteNothing) {
  const std::string dir = requests_.string();
  const std::vector<std::vector<std::string>> bad = {
      {"trigger", "--capture-steps", "2", "--enable-activities", "all", "-o", "r"},
      {"trigger", "--trigger-dir", (dir_ / "none").string(), "--capture-steps", "2",
       "--enable-activities", "all", "-o", "r"},
      {"trigger", "--trigger-dir", dir, "--enable-activities", "all", "-o", "r"},
      {"trigger", "--trigger-dir", dir, "--capture-steps", "2", "--enable-activities", "all"},
      {"trigger", "--trigger-dir", dir, "--capture-steps", "2", "-o", "r"},
      {"trigger", "--trigger-dir", dir, "--capture-steps", "2", "--enable-activities", "all", "-o",
       "r", kTrain},
      {"trigger", "--trigger-dir", dir, "--all", "--capture-steps", "2", "--enable-activities",
       "all", "-o", "r"},
      {"--trigger-dir", dir, "--enable-activities", "all", kTrain},
      {"attach", "--trigger-dir", dir, "--enable-activities", "all", "1"},
  };
  for (const auto &args : bad) {
    const RunResult r = prof(args);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  }
  EXPECT_TRUE(fs::is_empty(requests_));
}

} // namespace
} // namespace prof::e2e
