// The python source end to end: `prof -s process-tree python3
// busy_training.py` and the report's CPU samples read back. Python frames
// sit where the interpreter's loop ran them, native frames above and below
// stay, every Python thread has its own stack, and cpu-perf samples the
// process no second time.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;

struct Sample {
  int pid = 0;
  int tid = 0;
  std::vector<std::string> frames; ///< leaf first
};

/// CPU samples, or with `category` the call stacks a source gave its events.
std::vector<Sample> read_samples(const fs::path &path, const std::string &category = "") {
  std::vector<Sample> out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type != PROF_EVENT_SAMPLE) continue;
    if (category != (e.category != 0 ? std::string(reader.string(e.category)) : "")) continue;
    const report::TrackRecord *track = reader.track(e.track);
    const report::StackRecord *stack = reader.stack(static_cast<uint32_t>(e.id));
    if (track == nullptr || stack == nullptr) continue;
    Sample sample{track->pid, track->tid, {}};
    for (uint32_t frame : stack->frames)
      sample.frames.emplace_back(reader.string(frame));
    out.push_back(std::move(sample));
  }
  return out;
}

/// A frame of the workload as named in samples: its path as python3 got it.
std::string frame(const std::string &function, int line) {
  return function + " (" PROF_PYTHON_WORKLOAD ":" + std::to_string(line) + ")";
}

std::string describe(const Sample &s) {
  std::string text = "sample of thread " + std::to_string(s.tid) + ":";
  for (const auto &f : s.frames)
    text += "\n  " + f;
  return text;
}

bool is_python_frame(const std::string &frame) { return frame.find(".py:") != std::string::npos; }

/// Whether `frames` holds `run` one after another.
bool holds(const std::vector<std::string> &frames, const std::vector<std::string> &run) {
  return std::search(frames.begin(), frames.end(), run.begin(), run.end()) != frames.end();
}

std::vector<std::string> interpreters() {
  std::vector<std::string> out{PROF_SYSTEM_PYTHON3};
  if (const char *more = std::getenv("PROF_TEST_PYTHONS")) {
    std::stringstream list(more);
    for (std::string path; std::getline(list, path, ':');)
      if (!path.empty()) out.push_back(path);
  }
  return out;
}

class PythonE2E : public ::testing::TestWithParam<std::string> {
protected:
  testing::ScratchDir scratch_{"prof-python", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_P(PythonE2E, SamplesCarryPythonFramesWhereTheLoopRanThem) {
  const std::string python = GetParam();
  const RunResult r =
      run_process({kProf, "--quiet", "-s", "process-tree", "--sampling-frequency", "1000", "-o",
                   (dir_ / "r").string(), python, PROF_PYTHON_WORKLOAD, "1.5"},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto samples = read_samples(dir_ / "r.profrep");
  ASSERT_FALSE(samples.empty());

  int python_pid = 0;
  for (const Sample &s : samples)
    if (std::any_of(s.frames.begin(), s.frames.end(), is_python_frame)) python_pid = s.pid;
  ASSERT_NE(python_pid, 0) << "no sample has a Python frame";

  bool nested = false, native_above = false, other_thread = false;
  int in_python_process = 0, cut_short = 0, native_loop = 0;
  std::string native_loop_stacks;
  std::string cut_stacks;
  for (const Sample &s : samples) {
    if (s.pid != python_pid) continue;
    // Every loop frame gave way to Python frames, but in the few instructions
    // where a loop call has restored its caller's state and not yet returned;
    // and cpu-perf left the process alone.
    if (holds(s.frames, {"_PyEval_EvalFrameDefault"})) {
      ++native_loop;
      native_loop_stacks += "\n" + describe(s);
    }
    const std::vector<std::string> callers = {frame("middle", 24), frame("Trainer.step", 29),
                                              frame("<module>", 44)};
    for (std::size_t i = 0; i + callers.size() < s.frames.size(); ++i)
      if (s.frames[i].rfind("leaf_loop (" PROF_PYTHON_WORKLOAD ":", 0) == 0 &&
          std::equal(callers.begin(), callers.end(), s.frames.begin() + i + 1))
        nested = true; // at line 18 or 19 of leaf_loop
    const auto hash = std::find(s.frames.begin(), s.frames.end(), frame("hash_work", 13));
    if (hash != s.frames.begin() && hash != s.frames.end() && !is_python_frame(hash[-1]))
      native_above = true; // hashlib's C code under the line that called it
    if (s.tid != s.pid && holds(s.frames, {frame("middle", 24), frame("worker_thread", 35)}))
      other_thread = true;
    ++in_python_process;
    if (!s.frames.empty() && s.frames.back().find("<module>") != std::string::npos) {
      // The unwinder stops in a library that is being loaded (an import's
      // dlopen): the Python frames still come, after what was unwound.
      ++cut_short;
      for (const auto &f : s.frames)
        cut_stacks += "\n  " + f;
    }
  }
  EXPECT_LE(native_loop * 100, in_python_process)
      << "more than 1% of samples show the evaluation loop itself:" << native_loop_stacks;
  EXPECT_LE(cut_short * 50, in_python_process)
      << "more than 2% of samples lack the native frames below <module>:" << cut_stacks;
  EXPECT_TRUE(nested) << "no sample shows leaf_loop < middle < Trainer.step < <module>";
  EXPECT_TRUE(native_above) << "no sample shows C frames above hash_work";
  EXPECT_TRUE(other_thread) << "the data-worker thread's Python stack is missing";
}

TEST_P(PythonE2E, PythonSamplingFalseLeavesTheProcessToCpuPerf) {
  const RunResult r =
      run_process({kProf, "--quiet", "-s", "process-tree", "--python-sampling", "false", "-o",
                   (dir_ / "r").string(), GetParam(), PROF_PYTHON_WORKLOAD, "0.5"},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto samples = read_samples(dir_ / "r.profrep");
  ASSERT_FALSE(samples.empty());
  for (const Sample &s : samples)
    EXPECT_FALSE(std::any_of(s.frames.begin(), s.frames.end(), is_python_frame));
}

/// The option `key` of plugin `plugin` as the report's header keeps it, "".
std::string plugin_option(const fs::path &path, const std::string &plugin, const std::string &key) {
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  for (const auto &record : reader.header().plugins)
    for (const auto &[name, value] : record.options)
      if (record.name == plugin && name == key) return value;
  return "";
}

// A Python program's whole tree is the python source's: one timer per
// thread. cpu-perf keeps thread states only; a native child is sampled from
// inside too, its static functions named from its symbol table.
TEST_P(PythonE2E, APythonProgramsWholeTreeIsSampledFromInside) {
  const RunResult r = run_process({kProf, "--quiet", "-s", "process-tree", "--sampling-frequency",
                                   "1000", "-o", (dir_ / "r").string(), GetParam(),
                                   PROF_SOURCE_DIR "/tests/integration/python/tree.py", kWorkload,
                                   "--seconds", "0.3"},
                                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(plugin_option(dir_ / "r.profrep", "cpu-perf", "scope"), "none");
  EXPECT_EQ(plugin_option(dir_ / "r.profrep", "python", "native"), "true");
  int in_parent_loop = 0, in_burn = 0, python_pid = 0, child_pid = 0;
  for (const Sample &s : read_samples(dir_ / "r.profrep")) {
    const auto has = [&](std::string_view text) {
      return std::any_of(s.frames.begin(), s.frames.end(),
                         [&](const std::string &f) { return f.find(text) != std::string::npos; });
    };
    if (has("parent_loop (")) {
      ++in_parent_loop;
      python_pid = s.pid;
    }
    if (has("burn(")) {
      ++in_burn;
      child_pid = s.pid;
      EXPECT_FALSE(std::any_of(s.frames.begin(), s.frames.end(), is_python_frame)) << describe(s);
    }
  }
  // 0.3 s each at 1 kHz is some 300 samples on an idle core; a loaded suite
  // gave the burn 85 once.
  EXPECT_GT(in_parent_loop, 30) << "0.3 s of the parent's loop at 1 kHz";
  EXPECT_GT(in_burn, 30) << "0.3 s of the child's burn at 1 kHz, named";
  EXPECT_NE(python_pid, child_pid);
}

// Under a shell the tree is no Python program: cpu-perf samples it and
// leaves the Python process to the python source.
TEST_P(PythonE2E, UnderAShellCpuPerfLeavesThePythonProcessToThePythonSource) {
  const std::string command =
      "\"" + GetParam() + "\" " PROF_PYTHON_WORKLOAD " 0.5 && " + kWorkload + " --seconds 0.3";
  const RunResult r = run_process({kProf, "--quiet", "-s", "process-tree", "--sampling-frequency",
                                   "1000", "-o", (dir_ / "r").string(), "/bin/sh", "-c", command},
                                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(plugin_option(dir_ / "r.profrep", "cpu-perf", "scope"), "process-tree");
  EXPECT_EQ(plugin_option(dir_ / "r.profrep", "python", "native"), "false");
  int python_frames = 0, evaluation_loop = 0, burn = 0;
  for (const Sample &s : read_samples(dir_ / "r.profrep")) {
    if (std::any_of(s.frames.begin(), s.frames.end(), is_python_frame)) ++python_frames;
    if (holds(s.frames, {"_PyEval_EvalFrameDefault"})) ++evaluation_loop;
    if (!s.frames.empty() && s.frames.front().find("burn(") != std::string::npos) ++burn;
  }
  EXPECT_GT(python_frames, 100);
  EXPECT_LE(evaluation_loop * 100, python_frames) << "cpu-perf sampled the Python process too";
  // 0.3 s of burn at 1 kHz is 300 samples on an idle core; under a loaded
  // suite (ASan, two tests at a time) it got 82 once.
  EXPECT_GT(burn, 30) << "cpu-perf samples the native program";
}

/// Runs `script` (a file beside this test) under `prof -s process-tree` at
/// 1 kHz and returns the samples of its process.
std::vector<Sample> sample_script(const fs::path &dir, const std::string &python,
                                  const std::string &script) {
  const std::string path = fs::path(PROF_PYTHON_WORKLOAD).parent_path() / script;
  const RunResult r =
      run_process({kProf, "--quiet", "-f", "true", "-s", "process-tree", "--sampling-frequency",
                   "1000", "-o", (dir / "r").string(), python, path},
                  dir, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  return read_samples(dir / "r.profrep");
}

bool has_function(const Sample &s, const std::string &function) {
  return std::any_of(s.frames.begin(), s.frames.end(),
                     [&](const std::string &f) { return f.rfind(function + " (", 0) == 0; });
}

// Functions of known shares of CPU time are named with those shares.
TEST_P(PythonE2E, KnownFunctionsGetTheirShareOfSamples) {
  int main_thread = 0, hot = 0, cold = 0;
  for (const Sample &s : sample_script(dir_, GetParam(), "shares.py")) {
    if (s.tid != s.pid || !std::any_of(s.frames.begin(), s.frames.end(), is_python_frame)) continue;
    ++main_thread;
    hot += has_function(s, "hot_loop");
    cold += has_function(s, "cold_loop");
  }
  ASSERT_GT(main_thread, 500) << "1 s of CPU time at 1 kHz";
  const double hot_share = 100.0 * hot / main_thread;
  const double cold_share = 100.0 * cold / main_thread;
  EXPECT_NEAR(hot_share, 70.0, 5.0) << hot << " of " << main_thread;
  EXPECT_NEAR(cold_share, 20.0, 5.0) << cold << " of " << main_thread;
}

// Each worker thread of a pool shows its own Python stack.
TEST_P(PythonE2E, EachPoolThreadShowsItsOwnStack) {
  const std::vector<std::string> tasks = {"task_alpha", "task_beta", "task_gamma"};
  std::map<std::string, std::set<int>> threads_of;
  for (const Sample &s : sample_script(dir_, GetParam(), "thread_pool.py")) {
    int named = 0;
    for (const auto &task : tasks) {
      if (!has_function(s, task)) continue;
      ++named;
      threads_of[task].insert(s.tid);
      EXPECT_TRUE(has_function(s, "ThreadPoolExecutor._adjust_thread_count") ||
                  has_function(s, "_worker"))
          << describe(s);
    }
    EXPECT_LE(named, 1) << describe(s);
  }
  std::set<int> all;
  for (const auto &task : tasks) {
    ASSERT_EQ(threads_of[task].size(), 1u) << task << " ran on one thread";
    all.insert(*threads_of[task].begin());
  }
  EXPECT_EQ(all.size(), 3u) << "three threads, one task each";
}

// A program that profiles itself on SIGPROF keeps its own signals, never
// sees prof's, and survives setting SIGPROF back to its default.
TEST_P(PythonE2E, AProgramsOwnSigprofHandlerSeesOnlyItsOwnSignals) {
  const std::string path = fs::path(PROF_PYTHON_WORKLOAD).parent_path() / "own_sigprof.py";
  const RunResult r =
      run_process({kProf, "--quiet", "--print-app-log", "-s", "process-tree",
                   "--sampling-frequency", "1000", "-o", (dir_ / "r").string(), GetParam(), path},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("own handler ran"), std::string::npos) << r.describe();
  int with_python = 0;
  for (const Sample &s : read_samples(dir_ / "r.profrep"))
    with_python += has_function(s, "spin");
  EXPECT_GT(with_python, 300) << "prof samples on beside the program's own timer";
}

// Short runs that start and end threads, generators and imports, sampled at
// 5 kHz: each ends as it would without prof. Such runs found a fault on a
// half-built frame, a SIGPROF passed on as the program's, and a walk that
// never ended; 300 of them ran clean by hand before this test was written.
TEST_P(PythonE2E, ShortRunsFullOfThreadsAndGeneratorsEndCleanly) {
  const std::string path = fs::path(PROF_PYTHON_WORKLOAD).parent_path() / "churn.py";
  for (int run = 0; run < 10; ++run) {
    const RunResult r =
        run_process({kProf, "--quiet", "-f", "true", "-s", "process-tree", "--sampling-frequency",
                     "5000", "-o", (dir_ / "r").string(), GetParam(), path},
                    dir_, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << "run " << run << ": " << r.describe();
  }
}

// A forked child (a DataLoader worker) samples itself with its own worker,
// and ends as it would without prof (here by exit(), which runs the agent's
// teardown, the parent waiting for it).
TEST_P(PythonE2E, AForkedChildSamplesItsOwnPythonFrames) {
  const std::string script = "import os, sys\n"
                             "pid = os.fork()\n"
                             "if pid == 0:\n"
                             "    sum(i * i for i in range(3_000_000))\n"
                             "    sys.exit(7)\n"
                             "_, status = os.waitpid(pid, 0)\n"
                             "sys.exit(0 if os.waitstatus_to_exitcode(status) == 7 else 1)\n";
  const RunResult r = run_process({kProf, "--quiet", "-s", "process-tree", "--sampling-frequency",
                                   "1000", "-o", (dir_ / "r").string(), GetParam(), "-c", script},
                                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  int in_child = 0, child_pid = 0;
  for (const Sample &s : read_samples(dir_ / "r.profrep")) {
    if (!holds(s.frames, {"<genexpr> (<string>:4)"}) || !holds(s.frames, {"<module> (<string>:4)"}))
      continue;
    ++in_child; // only the child runs line 4
    child_pid = s.pid;
    EXPECT_FALSE(holds(s.frames, {"_PyEval_EvalFrameDefault"})) << describe(s);
  }
  EXPECT_GT(in_child, 20) << "the child's loop runs some 200 ms at 1 kHz";
  EXPECT_NE(child_pid, 0);
}

// A fork while the parent's sampler names frames: the child never finds the
// shared catalog's writer locked by a thread it does not have. At 5 kHz two
// runs in five hung there before; ten runs all end.
TEST_P(PythonE2E, ForksWhileTheSamplerNamesFramesEndCleanly) {
  // The child ends by exit(), whose teardown joins its sampler.
  const std::string script = "import os, sys\n"
                             "pid = os.fork()\n"
                             "if pid == 0:\n"
                             "    sum(i * i for i in range(300_000))\n"
                             "    sys.exit(0)\n"
                             "os.waitpid(pid, 0)\n";
  for (int run = 0; run < 10; ++run) {
    const RunResult r =
        run_process({kProf, "--quiet", "-f", "true", "-s", "process-tree", "--sampling-frequency",
                     "5000", "-o", (dir_ / "r").string(), GetParam(), "-c", script},
                    dir_, std::chrono::seconds(30));
    ASSERT_EQ(r.exit_code, 0) << "run " << run << ": " << r.describe();
  }
}

// osrt's call stacks of a Python process: the blocking call under the Python
// line that made it (--python-backtrace, on by default).
TEST_P(PythonE2E, OsrtStacksShowThePythonLineThatBlocked) {
  const std::string script = "import time\n"
                             "def waiter():\n"
                             "    time.sleep(0.02)\n"
                             "def main():\n"
                             "    for _ in range(3):\n"
                             "        waiter()\n"
                             "main()\n";
  for (const std::string with : {"true", "false"}) {
    SCOPED_TRACE("--python-backtrace " + with);
    const RunResult r = run_process({kProf, "--quiet", "-f", "true", "-t", "osrt",
                                     "--osrt-backtrace-threshold", "1000000", "--python-backtrace",
                                     with, "-o", (dir_ / "r").string(), GetParam(), "-c", script},
                                    dir_, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    const auto stacks = read_samples(dir_ / "r.profrep", "osrt");
    ASSERT_FALSE(stacks.empty());
    int named = 0;
    for (const Sample &s : stacks) {
      if (holds(s.frames, {"waiter (<string>:3)", "main (<string>:6)", "<module> (<string>:7)"}))
        ++named;
      if (with == "false") {
        EXPECT_FALSE(std::any_of(s.frames.begin(), s.frames.end(), [](const std::string &f) {
          return f.find("(<string>:") != std::string::npos;
        }));
      }
    }
    if (with == "true") {
      EXPECT_GE(named, 3) << "one stack per sleep";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreters, PythonE2E, ::testing::ValuesIn(interpreters()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string name = fs::path(info.param).filename().string();
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name + "_" + std::to_string(info.index);
                         });

} // namespace
} // namespace prof::e2e
