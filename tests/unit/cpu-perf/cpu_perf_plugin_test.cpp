// The built libprof-cpu-perf.so driven like prof drives it: a child held at
// a gate, the source started on it, the child released, stopped, flushed.
#include "perf_event_set.hpp"
#include <prof/testing/fake_source_host.hpp>

#include "tests/support/build_paths.hpp"
#include "tests/support/loaded_plugin.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>

namespace prof::cpu_perf {
namespace {

using testing::FakeSourceHost;

const prof_plugin_descriptor *plugin() {
  static const testing::LoadedPlugin loaded("cpu-perf");
  return loaded.descriptor();
}

/// A child that execs `program` once released, as prof's gate does.
class HeldChild {
public:
  explicit HeldChild(const std::vector<std::string> &argv) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[1]);
      char go;
      if (read(fds[0], &go, 1) != 1) _exit(125);
      std::vector<char *> args;
      for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(126);
    }
    close(fds[0]);
    gate_ = fds[1];
  }
  ~HeldChild() {
    if (gate_ >= 0) close(gate_);
    if (pid_ > 0 && !waited_) waitpid(pid_, nullptr, 0);
  }
  int pid() const { return pid_; }
  void release() {
    if (write(gate_, "g", 1) != 1) ADD_FAILURE() << "gate";
  }
  /// Waits for the exit; returns the CPU seconds the child used.
  double wait(int *status) {
    rusage usage{};
    wait4(pid_, status, 0, &usage);
    waited_ = true;
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  }

private:
  int pid_ = -1;
  int gate_ = -1;
  bool waited_ = false;
};

struct CaptureRun {
  std::unique_ptr<FakeSourceHost> host;
  double cpu_seconds = 0;
  uint64_t wall_ns = 0; ///< from the sampler's start to its flush
  int status = -1;
  bool started = false;
};

CaptureRun capture(const std::vector<std::string> &argv,
                   const std::vector<std::pair<std::string, std::string>> &options) {
  CaptureRun run;
  const prof_plugin_descriptor *d = plugin();
  if (d == nullptr) {
    ADD_FAILURE() << "cannot load the cpu-perf plugin: " << dlerror();
    return run;
  }
  HeldChild child(argv);
  run.host = std::make_unique<FakeSourceHost>(child.pid());
  for (const auto &[k, v] : options)
    run.host->set_option(k, v);
  void *self = d->source->create(run.host->api(), run.host.get());
  if (self == nullptr) return run;
  const auto began = std::chrono::steady_clock::now();
  if (d->source->configure(self) == PROF_OK && d->source->start(self) == PROF_OK) {
    run.started = true;
    child.release();
    run.cpu_seconds = child.wait(&run.status);
    EXPECT_EQ(d->source->stop(self), PROF_OK);
    EXPECT_EQ(d->source->flush(self), PROF_OK);
    run.wall_ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                            std::chrono::steady_clock::now() - began)
                                            .count());
  }
  d->source->destroy(self);
  return run;
}

std::string recursive() { return e2e::test_program("cpu-perf/cpu_perf_recursive"); }

/// Samples whose stack shows recurse_fib calling itself, below main.
size_t recursive_stacks(const FakeSourceHost &h) {
  size_t n = 0;
  for (const auto &s : h.samples()) {
    const auto frames = h.frames(s.stack);
    auto fib = std::adjacent_find(frames.begin(), frames.end(), [](auto &a, auto &b) {
      return a == "recurse_fib" && b == "recurse_fib";
    });
    if (fib != frames.end() && std::find(fib, frames.end(), "main") != frames.end()) ++n;
  }
  return n;
}

TEST(CpuPerfPlugin, DescriptorAndOptions) {
  const prof_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  EXPECT_STREQ(d->name, "cpu-perf");
  EXPECT_EQ(d->kind, PROF_KIND_SOURCE);
  EXPECT_EQ(d->scope, PROF_SCOPE_SYSTEM);
  std::vector<std::string> names;
  for (uint32_t i = 0; i < d->option_count; ++i)
    names.push_back(d->options[i].name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"callstack", "kernel", "frequency", "period", "backtrace",
                                      "depth", "scope", "switches", "counters"}));
}

TEST(CpuPerfPlugin, FramePointerStacksOfARecursiveProgram) {
  CaptureRun run = capture({recursive(), "0.5"}, {{"frequency", "1000"}, {"backtrace", "fp"}});
  ASSERT_TRUE(run.started);
  ASSERT_EQ(run.status, 0);
  const FakeSourceHost &h = *run.host;
  const auto samples = h.samples();
  const double expected = run.cpu_seconds * 1000;
  EXPECT_GE(static_cast<double>(samples.size()), 0.8 * expected)
      << samples.size() << " samples for " << run.cpu_seconds << " s of CPU";
  EXPECT_GE(recursive_stacks(h), samples.size() / 2);
  bool leaf = false;
  for (const auto &s : samples)
    leaf |= h.frames(s.stack).front() == "busy_leaf";
  EXPECT_TRUE(leaf);
  // Samples sit on the child's thread track, named after the program.
  const auto track = h.track(samples.at(0).track);
  EXPECT_EQ(track.kind, PROF_TRACK_THREAD);
  EXPECT_EQ(track.tid, track.pid);
  EXPECT_EQ(track.name, "cpu_perf_recurs"); // comm is 15 characters
  // Thread states and CPU rows.
  size_t running = 0, cpu_rows = 0;
  for (const auto &s : h.slices()) {
    if (s.category == "thread-state" && s.name == "Running") ++running;
    if (s.category == "cpu-schedule" && h.track(s.track).kind == PROF_TRACK_CPU) ++cpu_rows;
  }
  EXPECT_GT(running, 0u);
  EXPECT_EQ(cpu_rows, running);
}

TEST(CpuPerfPlugin, DwarfUnwindingFindsTheRecursion) {
  CaptureRun run = capture({recursive(), "0.4"}, {{"frequency", "1000"}, {"backtrace", "dwarf"}});
  ASSERT_TRUE(run.started);
  const FakeSourceHost &h = *run.host;
  const size_t samples = h.samples().size();
  EXPECT_GE(static_cast<double>(samples), 0.8 * run.cpu_seconds * 1000);
  EXPECT_GE(recursive_stacks(h), samples / 2);
}

TEST(CpuPerfPlugin, SleeperHasWaitingSlices) {
  CaptureRun run = capture({e2e::test_program("cpu-perf/cpu_perf_sleeper")}, {});
  ASSERT_TRUE(run.started);
  uint64_t waiting = 0, running = 0, runnable = 0;
  for (const auto &s : run.host->slices()) {
    if (s.category != "thread-state") continue;
    if (s.name == "Waiting") waiting += s.duration;
    if (s.name == "Running") running += s.duration;
    if (s.name == "Not scheduled") runnable += s.duration;
  }
  EXPECT_GE(waiting, 180'000'000u) << running << " " << runnable; // 5 sleeps of 40 ms
  // Sleeps overshoot on a loaded machine, but waiting never outlasts the run.
  EXPECT_LE(waiting, run.wall_ns);
  // 5 bursts of 20 ms of wall time: on a busy machine some of it is spent
  // runnable but not scheduled.
  EXPECT_GE(running + runnable, 95'000'000u) << running << " " << runnable;
  EXPECT_GT(running, 20'000'000u);
}

TEST(CpuPerfPlugin, DepthCapsFrames) {
  CaptureRun run = capture({recursive(), "0.2"}, {{"frequency", "500"}, {"depth", "3"}});
  ASSERT_TRUE(run.started);
  const auto samples = run.host->samples();
  ASSERT_FALSE(samples.empty());
  for (const auto &s : samples)
    EXPECT_LE(run.host->frames(s.stack).size(), 3u);
}

TEST(CpuPerfPlugin, HardwareCounterNotSupportedMessage) {
  std::string message;
  if (hardware_counter_supported({"cycles", 0}, message))
    GTEST_SKIP() << "this machine has a cycles counter; the not-supported path cannot be shown";
  CaptureRun run = capture({recursive(), "0.1"}, {{"counters", "cycles"}});
  EXPECT_FALSE(run.started);
  EXPECT_TRUE(run.host->logged(
      PROF_LOG_ERROR, "cpu-perf: hardware counter 'cycles' is not supported on this machine"));
}

TEST(CpuPerfPlugin, HardwareCountersPerThread) {
  std::string message;
  if (!hardware_counter_supported({"instructions", 1}, message))
    GTEST_SKIP() << "no hardware PMU here (" << message << ")";
  CaptureRun run = capture({recursive(), "0.2"}, {{"counters", "instructions"}});
  ASSERT_TRUE(run.started);
  const auto counters = run.host->counters();
  ASSERT_FALSE(counters.empty());
  for (const auto &c : counters)
    EXPECT_GT(c.value, 0);
}

TEST(CpuPerfPlugin, BadOptionsAndMissingTargetFailConfigure) {
  const prof_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  auto configure = [&](int pid, std::pair<std::string, std::string> option) {
    FakeSourceHost host(pid);
    host.set_option(option.first, option.second);
    void *self = d->source->create(host.api(), &host);
    const prof_status status = d->source->configure(self);
    d->source->destroy(self);
    const auto lines = host.log_lines();
    return std::make_pair(status, lines.empty() ? std::string() : lines.back().text);
  };
  auto r = configure(0, {"frequency", "100"});
  EXPECT_EQ(r.first, PROF_ERROR);
  EXPECT_NE(r.second.find("no target process"), std::string::npos) << r.second;
  r = configure(getpid(), {"counters", "flops"});
  EXPECT_EQ(r.first, PROF_ERROR);
  EXPECT_NE(r.second.find("unknown hardware counter 'flops'"), std::string::npos) << r.second;
}

TEST(CpuPerfPlugin, KernelStacksRefusedIsSaidClearly) {
  const auto paranoid = read_proc_int("/proc/sys/kernel/perf_event_paranoid");
  EXPECT_EQ(kernel_stacks_refused_message(),
            "cpu-perf: kernel call stacks are not permitted on this machine "
            "(perf_event_paranoid=" +
                (paranoid ? std::to_string(*paranoid) : "unknown") + ")");
  if (geteuid() != 0 || !paranoid || *paranoid < 2)
    GTEST_SKIP() << "needs root (to drop to an unprivileged user) and perf_event_paranoid >= 2";
  ASSERT_NE(plugin(), nullptr);
  // An unprivileged child profiling itself: user stacks only, with the warning.
  const pid_t pid = fork();
  if (pid == 0) {
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(3);
    FakeSourceHost host(getpid());
    host.set_option("kernel", "true");
    const prof_plugin_descriptor *d = plugin();
    void *self = d->source->create(host.api(), &host);
    const bool ok = d->source->configure(self) == PROF_OK && d->source->start(self) == PROF_OK;
    d->source->stop(self);
    d->source->destroy(self);
    if (!ok) _exit(2);
    _exit(host.logged(PROF_LOG_WARN, "kernel call stacks are not permitted") ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no warning, 2: start failed, 3: setuid failed";
}

} // namespace
} // namespace prof::cpu_perf
