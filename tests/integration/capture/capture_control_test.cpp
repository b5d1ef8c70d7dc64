// Capture control end to end: collection windows driven from another
// terminal, the prompt, --delay/--duration/--trace-rotation, capture ranges,
// attach, and the application's environment. prof runs in the background
// with a session folder of the test's own; times are CLOCK_MONOTONIC, the
// session clock, so the test can bracket each command.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_steps.hpp"
#include "tests/support/report_tracks.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

struct Window {
  uint64_t start = 0, end = 0;
  std::vector<uint64_t> ts; ///< every event's, sorted
};

Window read_window(const fs::path &path) {
  report::ReportReader reader;
  Window window;
  if (!reader.open(path.string()) || !reader.footer()) {
    ADD_FAILURE() << path << " is not a complete report";
    return window;
  }
  window.start = reader.header().session_start_ns;
  window.end = reader.footer()->end_ns;
  for (const prof_event &e : reader.read_all_events())
    window.ts.push_back(e.ts);
  std::sort(window.ts.begin(), window.ts.end());
  return window;
}

class CaptureControl : public ::testing::Test {
protected:
  void SetUp() override { runtime_ = "XDG_RUNTIME_DIR=" + dir_.string(); }
  std::vector<std::string> prof_args(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", runtime_, kProf});
    return args;
  }
  RunResult prof(std::vector<std::string> args) const {
    return run_process(prof_args(std::move(args)), dir_, 120s);
  }
  /// A control command from "another terminal"; its output and exit code.
  RunResult control(std::vector<std::string> args) const { return prof(std::move(args)); }
  bool wait_for_socket(const std::string &name) const {
    for (int i = 0; i < 500; ++i) {
      if (fs::exists(dir_ / "prof" / (name + ".sock"))) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }
  std::vector<std::string> reports() const {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir_))
      if (entry.path().extension() == ".profrep") names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  prof::testing::ScratchDir scratch_{"prof-windows", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string runtime_;
};

TEST_F(CaptureControl, StartStopTwiceYieldsTwoReportsHoldingOnlyTheirWindows) {
  // asys launch: the application runs with collection off until start.
  Background capture(
      prof_args({"launch", "--session-new", "w", "--cpu-utilization", "--utilization-frequency",
                 "100", "-o", "win", kWorkload, "--seconds", "30", "--quiet"}),
      dir_);
  ASSERT_TRUE(wait_for_socket("w"));
  std::this_thread::sleep_for(300ms); // collection is off: nothing of this may be kept
  const uint64_t t0 = now_ns();
  ASSERT_EQ(control({"start", "--session", "w"}).exit_code, 0);
  std::this_thread::sleep_for(500ms);
  const RunResult stopped = control({"stop"}); // the only session: no name needed
  const uint64_t t3 = now_ns();
  ASSERT_EQ(stopped.exit_code, 0) << stopped.describe();
  EXPECT_EQ(stopped.out, "collection window 1 stopped\n");
  std::this_thread::sleep_for(300ms);
  const uint64_t t4 = now_ns();
  const RunResult second = control({"start", "-o", "second"});
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_THAT(second.out, HasSubstr((dir_ / "second.profrep").string()));
  // The list names the report being written now.
  const RunResult listed = control({"sessions", "list"});
  EXPECT_THAT(listed.out, HasSubstr((dir_ / "second.profrep").string())) << listed.out;
  std::this_thread::sleep_for(500ms);
  ASSERT_EQ(control({"stop"}).exit_code, 0);
  const uint64_t t7 = now_ns();
  // The application runs far longer than the test needs (a slow start of
  // prof, under a sanitizer say, must not end it early): shut it down.
  ASSERT_EQ(control({"shutdown"}).exit_code, 0);
  ASSERT_EQ(capture.wait(30s), 128 + SIGTERM) << capture.output();

  EXPECT_EQ(reports(), (std::vector<std::string>{"second.profrep", "win.profrep"}));
  const Window one = read_window(dir_ / "win.profrep");
  const Window two = read_window(dir_ / "second.profrep");
  ASSERT_GT(one.ts.size(), 20u);
  ASSERT_GT(two.ts.size(), 20u);
  EXPECT_GE(one.start, t0);
  EXPECT_LE(one.end, t3);
  EXPECT_GE(one.ts.front(), one.start);
  EXPECT_LT(one.ts.back(), one.end);
  EXPECT_GE(two.start, t4);
  EXPECT_LE(two.end, t7);
  EXPECT_GE(two.ts.front(), two.start);
  EXPECT_LT(two.ts.back(), two.end);
}

TEST_F(CaptureControl, SuspendDropsExactlyTheSuspendedInterval) {
  Background capture(
      prof_args({"--session-new", "s", "--cpu-utilization", "--utilization-frequency", "100", "-o",
                 "s", kWorkload, "--seconds", "30", "--quiet"}),
      dir_);
  ASSERT_TRUE(wait_for_socket("s"));
  std::this_thread::sleep_for(400ms);
  const uint64_t before_suspend = now_ns();
  ASSERT_EQ(control({"--suspend", "--session", "s"}).exit_code, 0);
  const uint64_t suspended = now_ns();
  std::this_thread::sleep_for(700ms);
  const uint64_t before_resume = now_ns();
  ASSERT_EQ(control({"--resume", "--session", "s"}).exit_code, 0);
  const uint64_t resumed = now_ns();
  std::this_thread::sleep_for(600ms);
  ASSERT_EQ(control({"shutdown", "--session", "s"}).exit_code, 0); // writes the window
  ASSERT_EQ(capture.wait(30s), 128 + SIGTERM) << capture.output();
  const Window w = read_window(dir_ / "s.profrep");
  size_t inside = 0, before = 0, after = 0;
  for (uint64_t ts : w.ts) {
    inside += ts >= suspended && ts < before_resume;
    before += ts < before_suspend;
    after += ts >= resumed;
  }
  EXPECT_EQ(inside, 0u);
  EXPECT_GT(before, 20u);
  EXPECT_GT(after, 20u);
}

TEST_F(CaptureControl, CancelWritesNothingAndAGarbageMessageDisturbsNothing) {
  Background capture(
      prof_args({"--session-new", "c", "--profile-from-start", "off", "--cpu-utilization", "-o",
                 "c", kWorkload, "--seconds", "30", "--quiet"}),
      dir_);
  ASSERT_TRUE(wait_for_socket("c"));
  // A frame that claims 4 GB, then random bytes: that connection is closed.
  for (const std::string &junk :
       {std::string("\xff\xff\xff\xff", 4), std::string("\x05\0\0\0stat", 8)}) {
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, (dir_ / "prof" / "c.sock").c_str());
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    (void)!write(fd, junk.data(), junk.size());
    close(fd);
  }
  ASSERT_EQ(control({"start"}).exit_code, 0);
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(fs::exists(dir_ / "c.profrep"));
  const RunResult cancelled = control({"cancel"});
  EXPECT_EQ(cancelled.exit_code, 0) << cancelled.describe();
  EXPECT_THAT(cancelled.out, HasSubstr("nothing was written"));
  EXPECT_FALSE(fs::exists(dir_ / "c.profrep"));
  const RunResult twice = control({"cancel"});
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.err, HasSubstr("no collection window is running"));
  ASSERT_EQ(control({"shutdown"}).exit_code, 0);
  ASSERT_EQ(capture.wait(30s), 128 + SIGTERM) << capture.output();
  EXPECT_TRUE(reports().empty());
}

TEST_F(CaptureControl, ShutdownWritesTheWindowAndStopsTheApplication) {
  Background capture(prof_args({"--session-new", "sd", "--cpu-utilization", "-o", "sd", kWorkload,
                                "--seconds", "60", "--quiet"}),
                     dir_);
  ASSERT_TRUE(wait_for_socket("sd"));
  std::this_thread::sleep_for(300ms);
  const RunResult r = control({"shutdown"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(capture.wait(30s), 128 + SIGTERM) << capture.output();
  EXPECT_GT(read_window(dir_ / "sd.profrep").ts.size(), 5u);
}

TEST_F(CaptureControl, ShutdownWithKillNoneLeavesTheApplicationRunning) {
  Background capture(prof_args({"--session-new", "sn", "--kill", "none", "--cpu-utilization", "-o",
                                "sn", kWorkload, "--seconds", "2.5", "--print", "APP-END"}),
                     dir_);
  ASSERT_TRUE(wait_for_socket("sn"));
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(control({"shutdown", "--session", "sn"}).exit_code, 0);
  EXPECT_EQ(capture.wait(10s), 0) << capture.output();
  EXPECT_THAT(capture.output(), HasSubstr("runs on"));
  EXPECT_TRUE(fs::exists(dir_ / "sn.profrep"));
}

TEST_F(CaptureControl, AnotherUserCannotControlTheSession) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  Background capture(
      prof_args({"--session-new", "mine", "--profile-from-start", "off", "--cpu-utilization", "-o",
                 "m", kWorkload, "--seconds", "1.5", "--quiet"}),
      dir_);
  ASSERT_TRUE(wait_for_socket("mine"));
  const pid_t other = fork();
  if (other == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    const std::vector<std::string> args = prof_args({"start", "--session", "mine"});
    std::vector<char *> argv;
    for (const auto &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(other, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_NE(WEXITSTATUS(status), 0);
  EXPECT_NE(WEXITSTATUS(status), 99);
  const RunResult listed = control({"sessions", "list"});
  EXPECT_THAT(listed.out, HasSubstr("waiting")) << "the other user's start must not act";
  ASSERT_EQ(capture.wait(), 0) << capture.output();
  EXPECT_TRUE(reports().empty());
}

TEST_F(CaptureControl, DurationWithKillNoneLetsTheApplicationFinish) {
  const RunResult r = prof({"--duration", "0.5", "--kill", "none", "--cpu-utilization", "-o", "d",
                            kWorkload, "--seconds", "2", "--exit-code", "3"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("workload done"));
  EXPECT_GE(r.seconds, 1.9);
  const Window w = read_window(dir_ / "d.profrep");
  EXPECT_NEAR(static_cast<double>(w.end - w.start) / 1e9, 0.5, 0.1);
  ASSERT_FALSE(w.ts.empty());
  EXPECT_LT(w.ts.back(), w.end);
}

TEST_F(CaptureControl, DurationStopsTheApplicationByDefault) {
  const RunResult r = prof({"--delay", "0.3", "--duration", "0.5", "--cpu-utilization", "-o", "d",
                            kWorkload, "--seconds", "60"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.describe();
  EXPECT_LT(r.seconds, 30);
  EXPECT_THAT(r.out + r.err, HasSubstr("killed by signal 15"));
  const Window w = read_window(dir_ / "d.profrep");
  EXPECT_NEAR(static_cast<double>(w.end - w.start) / 1e9, 0.5, 0.1);
}

TEST_F(CaptureControl, ProfilerApiRangesRepeatTwiceThenStop) {
  const RunResult r = prof({"-c", "profiler-api", "--capture-range-end", "repeat:2",
                            "--cpu-utilization", "--utilization-frequency", "100", "-o", "pr",
                            kWorkload, "--ranges", "3", "--seconds", "2.4"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(reports(), (std::vector<std::string>{"pr-2.profrep", "pr.profrep"}));
  const Window one = read_window(dir_ / "pr.profrep");
  const Window two = read_window(dir_ / "pr-2.profrep");
  // Each range is 0.4 s of a 2.4 s run, and ranges are 0.4 s apart.
  EXPECT_NEAR(static_cast<double>(one.end - one.start) / 1e9, 0.4, 0.15);
  EXPECT_GT(two.start - one.end, 300'000'000u);
  EXPECT_GT(one.ts.size(), 10u);
  EXPECT_GT(two.ts.size(), 10u);
}

TEST_F(CaptureControl, AnnotationRangesOfTheGivenNameAndDomainStartAndStop) {
  const RunResult r = prof({"-c", "annotation", "-p", "step@train", "--capture-range-end", "repeat",
                            "--cpu-utilization", "-o", "an", kWorkload, "--ranges", "2",
                            "--seconds", "1.6", "--range-name", "step@train"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(reports(), (std::vector<std::string>{"an-2.profrep", "an.profrep"}));
  // Another domain's range of the same name is not it.
  const RunResult other =
      prof({"-c", "annotation", "-p", "step", "--cpu-utilization", "-o", "no", kWorkload,
            "--ranges", "1", "--seconds", "0.4", "--range-name", "step@train"});
  ASSERT_EQ(other.exit_code, 0) << other.describe();
  EXPECT_FALSE(fs::exists(dir_ / "no.profrep"));
}

TEST_F(CaptureControl, ProfilerApiRangeStopsTheApplicationAtItsEndByDefault) {
  // Step 1 of many is the range; the application is stopped after it.
  const RunResult r = prof({"-c", "profiler-api", "--cpu-utilization", "-o", "one", kTrain,
                            "--steps", "5000", "--profile-step", "1", "--quiet"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.describe();
  EXPECT_LT(r.seconds, 60);
  EXPECT_EQ(reports(), std::vector<std::string>{"one.profrep"});
}

// --capture-steps K --at-step S: the window holds exactly steps S to S+K-1
// (gcu-train-step ends each with prof_step()); with --capture-range-end stop
// the application runs to its end.
TEST_F(CaptureControl, CaptureStepsAtAStepHoldsExactlyThoseSteps) {
  const RunResult r =
      prof({"--capture-steps", "2", "--at-step", "3", "--capture-range-end", "stop",
            "--enable-activities", "*/general/operator", "-o", "st", kTrain, "--steps", "6"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("step 6: loss"));
  EXPECT_THAT(r.out, HasSubstr("step 4 ended in every process"));
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "st.profrep").string())) << r.describe();
  EXPECT_EQ(prof::testing::steps_in(reader), (std::set<uint64_t>{3, 4}));
  size_t operators = 0;
  for (const prof_event &e : reader.read_all_events())
    operators += e.type == PROF_EVENT_SLICE && e.kind != PROF_CATEGORY_ANNOTATION;
  EXPECT_GT(operators, 10u);
}

// --step-marker NAME[@DOMAIN]: each end of that annotation range ends a
// step. prof-workload's 4 ranges of 0.4 s, 0.4 s apart, end at 0.8, 1.6, 2.4
// and 3.2 s: step 2 is [0.8, 1.6).
TEST_F(CaptureControl, StepMarkerRangesEndTheStepsThatWindowsFollow) {
  const RunResult r =
      prof({"--step-marker", "iter@train", "--capture-steps", "1", "--at-step", "2",
            "--capture-range-end", "stop", "--cpu-utilization", "-o", "sm", kWorkload, "--ranges",
            "4", "--seconds", "3.2", "--range-name", "iter@train"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("step 2 ended in every process"));
  EXPECT_EQ(reports(), std::vector<std::string>{"sm.profrep"});
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "sm.profrep").string())) << r.describe();
  EXPECT_EQ(prof::testing::steps_in(reader), (std::set<uint64_t>{2}));
  const Window w = read_window(dir_ / "sm.profrep");
  EXPECT_NEAR(static_cast<double>(w.end - w.start) / 1e9, 0.8, 0.2);

  // The same name in another domain marks no step: no window opens.
  const RunResult other =
      prof({"--step-marker", "iter@other", "--capture-steps", "1", "--at-step", "2",
            "--capture-range-end", "stop", "--cpu-utilization", "-o", "none", kWorkload, "--ranges",
            "3", "--seconds", "1.2", "--range-name", "iter@train"});
  ASSERT_EQ(other.exit_code, 0) << other.describe();
  EXPECT_FALSE(fs::exists(dir_ / "none.profrep"));

  for (const char *bad : {"@train", "iter@", ""}) {
    const RunResult refused = prof({"--step-marker", bad, "--capture-steps", "1",
                                    "--cpu-utilization", "-o", "bad", kWorkload});
    EXPECT_EQ(refused.exit_code, 2) << bad << refused.describe();
    EXPECT_THAT(refused.err, HasSubstr("--step-marker")) << bad;
    EXPECT_FALSE(fs::exists(dir_ / "bad.profrep"));
  }
}

// Python programs mark steps with prof.step(): importable under prof with
// nothing set up, a C function (the module _prof_marks, not ctypes), and
// doing nothing without prof.
TEST_F(CaptureControl, PythonProgramsMarkStepsWithProfStep) {
  const std::string program = "import prof, time\n"
                              "print('marks in', prof.step.__module__)\n"
                              "for _ in range(10):\n"
                              "    time.sleep(0.05)\n"
                              "    print(prof.step())\n";
  const RunResult r = prof({"--capture-steps", "2", "--capture-range-end", "stop",
                            "--cpu-utilization", "-o", "py", "/usr/bin/python3", "-c", program});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // Counted in the text: prof's own lines may land inside the program's.
  size_t marked = 0;
  for (size_t at = r.out.find("True"); at != std::string::npos; at = r.out.find("True", at + 4))
    ++marked;
  EXPECT_EQ(marked, 10u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("marks in _prof_marks\n"));
  // Step 2 unless a loaded machine let the program mark steps before prof looked.
  const size_t at = r.out.find("capturing steps ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const uint64_t first = std::stoull(r.out.substr(at + 16));
  EXPECT_GE(first, 2u);
  EXPECT_LE(first, 9u);
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "py.profrep").string())) << r.describe();
  EXPECT_EQ(prof::testing::steps_in(reader), (std::set<uint64_t>{first, first + 1})) << r.out;

  const RunResult alone =
      run_process({"/usr/bin/env", "PYTHONPATH=" + (kPluginDir / "python-site").string(),
                   "/usr/bin/python3", "-c", program},
                  dir_);
  ASSERT_EQ(alone.exit_code, 0) << alone.describe();
  std::vector<std::string> expected{"marks in _prof_marks"};
  expected.resize(11, "False");
  EXPECT_EQ(split_lines(alone.out), expected);
}

TEST_F(CaptureControl, TraceRotationKeepsTheNewestReports) {
  const RunResult r = prof({"--duration", "0.3", "--trace-rotation", "2", "--cpu-utilization", "-o",
                            "rot", kWorkload, "--seconds", "1.7", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto kept = reports();
  ASSERT_EQ(kept.size(), 2u) << r.describe();
  EXPECT_NE(kept[0], "rot.profrep") << "the oldest reports go";
}

TEST_F(CaptureControl, AttachAndDetachLeaveTheApplicationRunningToItsEnd) {
  Background app({kWorkload, "--seconds", "2.5", "--exit-code", "4"}, dir_);
  std::this_thread::sleep_for(200ms);
  const RunResult r = prof(
      {"attach", "--cpu-utilization", "--duration", "0.5", "-o", "a", std::to_string(app.pid())});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(kill(app.pid(), 0), 0) << "the application must still run";
  EXPECT_EQ(app.wait(), 4) << app.output();
  EXPECT_THAT(app.output(), HasSubstr("workload done"));
  const Window w = read_window(dir_ / "a.profrep");
  EXPECT_GT(w.ts.size(), 10u);
}

TEST_F(CaptureControl, AttachWritesItsDebugDump) {
  Background app({kWorkload, "--seconds", "1.5"}, dir_);
  std::this_thread::sleep_for(200ms);
  const RunResult r = prof({"attach", "--cpu-utilization", "--duration", "0.3", "-o", "a",
                            "--debug-dump=dump", std::to_string(app.pid())});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(app.wait(), 0) << app.output();
  std::ifstream configuration(dir_ / "dump" / "configuration.txt");
  std::string first;
  std::getline(configuration, first);
  EXPECT_EQ(first, "subcommand: attach");
  std::ifstream chunks(dir_ / "dump" / "chunks.txt");
  std::getline(chunks, first);
  EXPECT_THAT(first, ::testing::StartsWith("Report " + (dir_ / "a.profrep").string() + ": "));
  EXPECT_TRUE(fs::exists(dir_ / "dump" / "plugins.txt"));
  EXPECT_TRUE(fs::exists(dir_ / "dump" / "environment.txt"));
}

size_t cpu_samples(const fs::path &path) {
  report::ReportReader reader;
  if (!reader.open(path.string())) return 0;
  size_t samples = 0;
  for (const prof_event &e : reader.read_all_events())
    samples += e.type == PROF_EVENT_SAMPLE;
  return samples;
}

// cpu-perf hands over its samples when it stops, after --duration's window
// has ended: the window must still take them, whether prof launched the
// process or attached to it.
TEST_F(CaptureControl, CpuSamplingOfAnAttachedProcessRecordsItsSamples) {
  Background app({kWorkload, "--seconds", "5"}, dir_);
  std::this_thread::sleep_for(200ms);
  const RunResult r = prof({"attach", "--cpu-profiling-callstack", "--sampling-frequency", "1000",
                            "--duration", "1", "-o", "a", std::to_string(app.pid())});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out + r.err, ::testing::Not(HasSubstr("no events were collected")));
  EXPECT_GT(cpu_samples(dir_ / "a.profrep"), 100u) << r.describe();
  EXPECT_EQ(kill(app.pid(), 0), 0) << "the application must still run";
}

TEST_F(CaptureControl, CpuSamplingWithPidRecordsTheSamples) {
  Background app({kWorkload, "--seconds", "5"}, dir_);
  std::this_thread::sleep_for(200ms);
  const RunResult r = prof({"--pid", std::to_string(app.pid()), "--cpu-profiling-callstack",
                            "--duration", "1", "-o", "p"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_GT(cpu_samples(dir_ / "p.profrep"), 0u) << r.describe();
}

TEST_F(CaptureControl, CpuSamplingOfALaunchedProcessForADurationRecordsItsSamples) {
  const RunResult r = prof(
      {"--cpu-profiling-callstack", "--duration", "1", "-o", "l", kWorkload, "--seconds", "5"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.describe();
  EXPECT_GT(cpu_samples(dir_ / "l.profrep"), 0u) << r.describe();
}

TEST_F(CaptureControl, AttachReachesTheAgentOfADynamicProcess) {
  Background app({kTrain, "--steps", "40", "--quiet"}, dir_,
                 {"PROF_MODE=dynamic", "LD_PRELOAD=" + kAgent, runtime_});
  const std::string socket = "dynamic-" + std::to_string(app.pid());
  ASSERT_TRUE(wait_for_socket(socket)) << app.output();
  const RunResult listed = control({"sessions", "list"});
  EXPECT_THAT(listed.out, HasSubstr("attachable"));
  const RunResult r = prof({"--pid", std::to_string(app.pid()), "--enable-activities",
                            "*/general/operator", "--duration", "0.8", "-o", "g"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "g.profrep").string()));
  EXPECT_GT(prof::testing::device_slices(reader), 0u);
  EXPECT_EQ(kill(app.pid(), 0), 0) << "detaching leaves the application running";
  EXPECT_EQ(app.wait(), 0) << app.output();
}

TEST_F(CaptureControl, AttachWithoutAnAgentIsAUsageError) {
  Background app({kWorkload, "--seconds", "3"}, dir_);
  const RunResult r =
      prof({"--pid", std::to_string(app.pid()), "--enable-activities", "*/general/operator"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("PROF_MODE=dynamic"));
  const RunResult env =
      prof({"attach", "--cpu-utilization", "-e", "A=1", std::to_string(app.pid())});
  EXPECT_EQ(env.exit_code, 2) << env.describe();
  EXPECT_THAT(env.err, HasSubstr("--env-var sets up a launched application"));
  const RunResult range =
      prof({"attach", "--cpu-utilization", "-c", "profiler-api", std::to_string(app.pid())});
  EXPECT_EQ(range.exit_code, 2) << range.describe();
  const RunResult osrt = prof({"attach", "-t", "osrt", std::to_string(app.pid())});
  EXPECT_EQ(osrt.exit_code, 2) << osrt.describe();
  EXPECT_THAT(osrt.err, HasSubstr("prof: osrt replaces functions of the application, and process " +
                                  std::to_string(app.pid()) +
                                  " did not start with it: start it with PROF_MODE=dynamic "
                                  "LD_PRELOAD="));
  EXPECT_THAT(osrt.err, HasSubstr("libprof-osrt.so\n"));
  EXPECT_EQ(app.wait(), 0);
}

TEST_F(CaptureControl, ThePromptStartsAndStopsCollecting) {
  Background capture(prof_args({"--dynamic", "on", "--cpu-utilization", "-o", "dyn", kWorkload,
                                "--seconds", "3", "--quiet"}),
                     dir_);
  std::this_thread::sleep_for(300ms);
  capture.type("status\n");
  capture.type("start\n");
  std::this_thread::sleep_for(500ms);
  capture.type("stop\n");
  capture.type("quit\n");
  ASSERT_EQ(capture.wait(20s), 0) << capture.output();
  EXPECT_THAT(capture.output(), HasSubstr("(prof) waiting"));
  EXPECT_THAT(capture.output(), HasSubstr("prof detached"));
  const Window w = read_window(dir_ / "dyn.profrep");
  EXPECT_GT(w.ts.size(), 10u);
}

TEST_F(CaptureControl, ApplicationEnvironmentAndOutput) {
  const RunResult env = prof(
      {"-e", "PROF_TEST_A=1,PROF_TEST_B=x=y", "-n", "false", "--cpu-utilization", "/usr/bin/env"});
  ASSERT_EQ(env.exit_code, 0) << env.describe();
  const auto lines = split_lines(env.out);
  EXPECT_THAT(lines, ::testing::Contains("PROF_TEST_A=1"));
  EXPECT_THAT(lines, ::testing::Contains("PROF_TEST_B=x=y"));
  EXPECT_THAT(lines, ::testing::Not(::testing::Contains(::testing::StartsWith("PATH="))));
  const RunResult quiet =
      prof({"--show-output", "false", "--cpu-utilization", kWorkload, "--print", "HELLO-APP"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.describe();
  EXPECT_THAT(split_lines(quiet.out), ::testing::Not(::testing::Contains("HELLO-APP")));
}

TEST_F(CaptureControl, WaitPrimaryEndsWithTheLaunchedProcess) {
  const fs::path marker = dir_ / "orphan-done";
  // In the background: the orphan keeps prof's output open after prof ends.
  Background capture(prof_args({"--wait", "primary", "--cpu-utilization", kWorkload, "--seconds",
                                "0.2", "--orphan-ms", "1500", "--marker", marker.string()}),
                     dir_);
  ASSERT_EQ(capture.wait(), 0) << capture.output();
  EXPECT_FALSE(fs::exists(marker)) << "prof must not wait for the orphan";
  for (int i = 0; i < 300 && !fs::exists(marker); ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(fs::exists(marker));
}

} // namespace
} // namespace prof::e2e
