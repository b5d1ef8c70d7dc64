// prof with a process-scope plugin: the agent is preloaded into the
// application and every process it execs or forks; what they emit reaches
// the report, also when the application is killed; and killing prof leaves
// the application unharmed.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using prof::e2e::run_process;

namespace {

using prof::e2e::kProf;
using prof::e2e::kWorkload;

class AgentE2E : public ::testing::Test {
protected:
  std::vector<std::string> prof_args(const std::string &plugin, const fs::path &report) const {
    return {kProf, "--plugin-path", PROF_AGENT_FIXTURE_DIR, "--plugin", plugin,
            "--export-profile", report.string()};
  }
  /// Marker slices per pid, and pids that saw "forked".
  struct Markers {
    std::map<int, size_t> slices;
    std::set<int> forked;
    std::map<int, std::set<uint64_t>> ids;
  };
  static Markers markers_of(const prof::report::ReportReader &reader) {
    Markers m;
    for (const prof_event &e : reader.read_all_events()) {
      const auto *track = reader.track(e.track);
      if (!track) continue;
      if (e.type == PROF_EVENT_SLICE && reader.string(e.name) == "marker") {
        ++m.slices[track->pid];
        m.ids[track->pid].insert(e.id);
      }
      if (e.type == PROF_EVENT_INSTANT && reader.string(e.name) == "forked")
        m.forked.insert(track->pid);
    }
    return m;
  }
  prof::testing::ScratchDir scratch_{"prof-agent-e2e", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(AgentE2E, EveryExecutedProcessRunsThePluginOnItsOwnTrack) {
  const fs::path report = dir_ / "r.profrep";
  auto args = prof_args("proc-marker count=2000", report);
  const std::string script = kWorkload + " --seconds 0.05 --quiet; " + kWorkload +
                             " --seconds 0.05 --quiet";
  args.insert(args.end(), {"sh", "-c", script});
  auto r = run_process(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  const Markers m = markers_of(reader);
  // sh and the two workloads it runs: three processes, every marker kept.
  ASSERT_EQ(m.slices.size(), 3u) << r.describe();
  for (const auto &[pid, count] : m.slices) {
    EXPECT_EQ(count, 2000u) << "pid " << pid;
    EXPECT_EQ(m.ids.at(pid).size(), 2000u);
  }
  // Process tracks carry the command line.
  size_t workload_tracks = 0;
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_PROCESS && track.name.rfind(kWorkload + " --seconds", 0) == 0)
      ++workload_tracks;
  EXPECT_EQ(workload_tracks, 2u);
  EXPECT_EQ(reader.total_dropped(), 0u);
}

TEST_F(AgentE2E, PosixSpawnAndVforkExecAreFollowed) {
  const fs::path report = dir_ / "r.profrep";
  auto args = prof_args("proc-marker count=100", report);
  args.insert(args.end(), {kWorkload, "--spawn", "2", "--vfork", "2", "--seconds", "0.05", "--quiet"});
  auto r = run_process(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  const Markers m = markers_of(reader);
  EXPECT_EQ(m.slices.size(), 5u) << r.describe(); // the workload and its four copies
  for (const auto &[pid, count] : m.slices) EXPECT_EQ(count, 100u) << "pid " << pid;
}

TEST_F(AgentE2E, ForkedChildrenGetTheirOwnProcessTrack) {
  const fs::path report = dir_ / "r.profrep";
  auto args = prof_args("proc-marker count=10", report);
  args.insert(args.end(), {kWorkload, "--children", "2", "--seconds", "0.05", "--quiet"});
  auto r = run_process(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  const Markers m = markers_of(reader);
  EXPECT_EQ(m.forked.size(), 2u) << r.describe();
  for (int pid : m.forked) EXPECT_EQ(m.slices.count(pid), 0u); // forks do not restart plugins
}

// Killed outright, by a crash or by abort(): every event it emitted is in
// the report, and prof says how it died.
class KilledApplication : public AgentE2E, public ::testing::WithParamInterface<int> {};

TEST_P(KilledApplication, WhatItEmittedReachesTheReport) {
  const int signal = GetParam();
  const fs::path report = dir_ / "r.profrep";
  auto args = prof_args("proc-marker count=5000", report);
  args.insert(args.end(),
              {kWorkload, "--seconds", "0.05", "--signal", std::to_string(signal), "--quiet"});
  auto r = run_process(args);
  EXPECT_EQ(r.exit_code, 128 + signal) << r.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  const Markers m = markers_of(reader);
  ASSERT_EQ(m.slices.size(), 1u);
  EXPECT_EQ(m.slices.begin()->second, 5000u);
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_TRUE(reader.footer()->killed_by_signal);
  EXPECT_EQ(reader.footer()->signal, signal);
}

INSTANTIATE_TEST_SUITE_P(Signals, KilledApplication, ::testing::Values(SIGKILL, SIGSEGV, SIGABRT),
                         [](const auto &info) { return std::string(sigabbrev_np(info.param)); });

// Threads emitting far faster than prof drains rings this small: the
// application never waits for prof, and every event is either in the report
// or counted as dropped, exactly.
TEST_F(AgentE2E, OverloadNeverBlocksAndEveryEventIsRecordedOrCounted) {
  const fs::path report = dir_ / "r.profrep";
  constexpr int kThreads = 4, kPerThread = 200000;
  auto args = prof_args("proc-marker count=" + std::to_string(kPerThread) +
                            " threads=" + std::to_string(kThreads),
                        report);
  args.insert(args.end(),
              {"--host-ringbuffer-size", "2", kWorkload, "--seconds", "0.2", "--quiet"});
  auto r = run_process(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  const Markers m = markers_of(reader);
  ASSERT_EQ(m.slices.size(), 1u);
  const uint64_t recorded = m.slices.begin()->second;
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_GT(reader.total_dropped(), 0u) << "the rings never filled: no overload was made";
  EXPECT_EQ(recorded + reader.total_dropped(), uint64_t{kThreads} * kPerThread);
  EXPECT_EQ(recorded + reader.footer()->dropped, uint64_t{kThreads} * kPerThread);
  EXPECT_THAT(r.out + r.err, ::testing::HasSubstr("events were dropped because rings were full"));
}

TEST_F(AgentE2E, KillingProfLeavesTheApplicationAndItsExitCodeAlone) {
  const fs::path status = dir_ / "status";
  const fs::path started = dir_ / "started";
  // The application emits far more than its rings hold once prof is gone.
  const std::string script = "touch '" + started.string() + "'; " + kWorkload +
                             " --seconds 1.2 --exit-code 3 --quiet; echo $? > '" + status.string() +
                             "'";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execl(kProf.c_str(), kProf.c_str(), "--plugin-path", PROF_AGENT_FIXTURE_DIR, "--plugin",
          "proc-marker count=100", "sh", "-c", script.c_str(), nullptr);
    _exit(127);
  }
  // Killed while the application runs, however long a loaded machine takes
  // to start it.
  for (int i = 0; i < 300 && !fs::exists(started); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  for (int i = 0; i < 60 && !fs::exists(status); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(status));
  std::ifstream in(status);
  int code = -1;
  in >> code;
  EXPECT_EQ(code, 3);
}

TEST_F(AgentE2E, OsRuntimeTracingShowsAKnownMutexWait) {
  const fs::path report = dir_ / "r.profrep";
  auto r = run_process({kProf, "-t", "osrt", "--export-profile", report.string(), kWorkload,
                        "--lock-wait-ms", "150", "--seconds", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("OS runtime:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pthread_mutex_lock"), std::string::npos) << r.out;
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  uint64_t longest = 0;
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_SLICE && reader.string(e.name) == "pthread_mutex_lock" &&
        reader.string(e.category) == "osrt")
      longest = std::max(longest, e.duration);
  // Inside the wait the program measured around its own lock call (1 ms for
  // the two clocks), and most of it: a loaded machine may preempt the
  // program between its clock and the call, never make the call longer.
  const auto at = r.out.find("lock wait: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const double waited = std::stod(r.out.substr(at + 11));
  EXPECT_GT(waited, 50e6); // the helper held the lock most of its 150 ms
  EXPECT_LE(static_cast<double>(longest), waited + 1e6);
  EXPECT_GE(static_cast<double>(longest), waited * 0.5);
}

TEST_F(AgentE2E, WithoutProfTheAgentDoesNothing) {
  // Preloaded with no region named, the agent stays out of the way.
  const std::string &agent = prof::e2e::kAgent;
  auto r = run_process({"/usr/bin/env", "LD_PRELOAD=" + agent, "PROF_AGENT_SHM=", kWorkload,
                        "--seconds", "0.05", "--exit-code", "4"});
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_EQ(r.err, "");
  auto bad = run_process({"/usr/bin/env", "LD_PRELOAD=" + agent, "PROF_AGENT_SHM=/prof-nonexistent",
                          kWorkload, "--seconds", "0.05", "--exit-code", "5"});
  EXPECT_EQ(bad.exit_code, 5) << bad.describe();
  EXPECT_NE(bad.err.find("this process is not profiled"), std::string::npos) << bad.err;
}

} // namespace
