// nic source costs. BM_Sample*: one sample of every interface of this
// machine (loopback included), from /proc/net/dev kept open or from the
// sysfs statistics files kept open. BM_PluginRun: the built plugin sampling
// for one second at a given rate: samples taken and missed, and the CPU its
// sampling thread used (from /proc/self/task/TID/schedstat).
#include "nic_sampler.hpp"

#include "tests/support/plugin_library.hpp"

#include <cstddef>
#include <prof/plugin.h>

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <dirent.h>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using prof::nic::DeviceFilter;
using prof::nic::DeviceMetrics;
using prof::nic::NetdevStats;
using prof::nic::NicSampler;
using prof::nic::SamplerOptions;

void sample_once(benchmark::State &state, NetdevStats stats) {
  SamplerOptions options;
  options.netdev_stats = stats;
  options.rescan_interval_ns = UINT64_MAX; // the device list is read once
  NicSampler sampler(std::get<DeviceFilter>(DeviceFilter::parse("", true)), options);
  std::vector<DeviceMetrics> out;
  uint64_t now = 1;
  size_t devices = sampler.take(now, out);
  for (auto _ : state) {
    devices = sampler.take(++now, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["devices"] = static_cast<double>(devices);
}

void BM_SampleProcNetDev(benchmark::State &state) { sample_once(state, NetdevStats::kProc); }
void BM_SampleSysfs(benchmark::State &state) { sample_once(state, NetdevStats::kSysfs); }
BENCHMARK(BM_SampleProcNetDev)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SampleSysfs)->Unit(benchmark::kMicrosecond);

/// The peer of BM_PluginRun: a thread that only sleeps to absolute
/// deadlines at the same rate, so the cost of waking up on this machine
/// shows apart from the cost of sampling.
void BM_EmptyWakeLoop(benchmark::State &state) {
  const long period_ns = 1'000'000'000L / state.range(0);
  for (auto _ : state) {
    double cpu = 0, wakes = 0;
    std::thread([&] {
      timespec next{}, begin{}, end{};
      clock_gettime(CLOCK_MONOTONIC, &next);
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &begin);
      for (long i = 0; i < state.range(0); ++i) {
        next.tv_nsec += period_ns;
        if (next.tv_nsec >= 1'000'000'000L) next.tv_nsec -= 1'000'000'000L, ++next.tv_sec;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
        ++wakes;
      }
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
      cpu = static_cast<double>(end.tv_sec - begin.tv_sec) * 1e9 +
            static_cast<double>(end.tv_nsec - begin.tv_nsec);
    }).join();
    state.counters["cpu%"] = 100.0 * cpu / 1e9;
    state.counters["us/wake"] = cpu / 1e3 / wakes;
  }
}
BENCHMARK(BM_EmptyWakeLoop)
    ->Arg(10000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// A host that counts what the plugin emits and keeps what it logs.
struct CountingHost {
  std::atomic<uint64_t> counters{0}; ///< samples seen
  std::atomic<uint32_t> tracks{0};
  std::mutex mutex;
  std::vector<std::string> logs;
  std::string frequency, stats;
  prof_session_info session{sizeof(prof_session_info), "bench", 0, "", "localhost"};

  static CountingHost &self(void *host) { return *static_cast<CountingHost *>(host); }
  static prof_string_id intern(void *, const char *, size_t) { return 1; }
  static prof_track_id track(void *host, const prof_track_desc *) { return ++self(host).tracks; }
  static prof_stack_id stack(void *, const prof_string_id *, uint32_t) { return 0; }
  static void slice(void *, prof_track_id, uint64_t, uint64_t, prof_string_id, prof_string_id,
                    uint64_t) {}
  static void instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
  /// Counts the values of track 2: the first counter ("RX rate") of the
  /// first device, which every sample emits once.
  static void counter(void *host, prof_track_id track, uint64_t, double) {
    if (track == 2) self(host).counters.fetch_add(1, std::memory_order_relaxed);
  }
  static void sample(void *, prof_track_id, uint64_t, prof_stack_id) {}
  static void flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
  static prof_clock_id clock(void *, const char *, double) { return 0; }
  static void calibrate(void *, prof_clock_id, uint64_t, uint64_t) {}
  static uint64_t now(void *) {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }
  static void log(void *host, prof_log_level, const char *message) {
    std::lock_guard lock(self(host).mutex);
    self(host).logs.emplace_back(message);
  }
  static const char *option(void *host, const char *name) {
    if (std::string(name) == "frequency") return self(host).frequency.c_str();
    if (std::string(name) == "loopback") return "true";
    if (std::string(name) == "netdev-stats") return self(host).stats.c_str();
    return nullptr;
  }
  static const prof_session_info *info(void *host) { return &self(host).session; }
  static constexpr prof_host_api kApi{offsetof(prof_host_api, emit_stack), // an ABI 1.1 host
                                      &intern,
                                      &track,
                                      &stack,
                                      &slice,
                                      &instant,
                                      &counter,
                                      &sample,
                                      &flow,
                                      &clock,
                                      &calibrate,
                                      &now,
                                      &log,
                                      &option,
                                      &info};
};

std::set<int> thread_ids() {
  std::set<int> ids;
  if (DIR *dir = opendir("/proc/self/task")) {
    while (const dirent *entry = readdir(dir))
      if (entry->d_name[0] != '.') ids.insert(std::atoi(entry->d_name));
    closedir(dir);
  }
  return ids;
}

/// Nanoseconds thread `tid` of this process has run.
double thread_cpu_ns(int tid) {
  std::ifstream schedstat("/proc/self/task/" + std::to_string(tid) + "/schedstat");
  double ns = 0;
  schedstat >> ns;
  return ns;
}

void BM_PluginRun(benchmark::State &state) {
  const int frequency = static_cast<int>(state.range(0));
  const prof::testing::PluginLibrary plugin("nic");
  if (plugin.descriptor() == nullptr) {
    state.SkipWithError(plugin.error().c_str());
    return;
  }
  const prof_source_vtable &v = *plugin.descriptor()->source;
  for (auto _ : state) {
    CountingHost host;
    host.frequency = std::to_string(frequency);
    host.stats = state.range(1) == 0 ? "proc" : "sysfs";
    void *instance = v.create(&CountingHost::kApi, &host);
    if (v.configure(instance) != PROF_OK) {
      state.SkipWithError("configure failed");
      v.destroy(instance);
      break;
    }
    const std::set<int> before = thread_ids();
    v.start(instance);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    int sampler_tid = 0;
    for (int tid : thread_ids())
      if (!before.count(tid)) sampler_tid = tid;
    const uint64_t counters_begin = host.counters.load();
    const double cpu_begin = thread_cpu_ns(sampler_tid);
    const auto wall_begin = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const double cpu = thread_cpu_ns(sampler_tid) - cpu_begin;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_begin).count();
    const uint64_t counters = host.counters.load() - counters_begin;
    v.stop(instance);
    v.destroy(instance);

    const auto samples = static_cast<double>(counters);
    int effective = frequency;
    for (const std::string &line : host.logs)
      std::sscanf(line.c_str(), "nic: frequency %*d Hz lowered to %d Hz", &effective);
    state.counters["Hz"] = effective;
    state.counters["samples/s"] = samples / wall;
    state.counters["missed/s"] = std::max(0.0, effective - samples / wall);
    state.counters["cpu%"] = 100.0 * cpu / 1e9 / wall;
    state.counters["us/sample"] = samples > 0 ? cpu / 1e3 / samples : 0;
    for (const std::string &line : host.logs)
      state.SetLabel(line);
  }
}
BENCHMARK(BM_PluginRun)
    ->ArgsProduct({{1000, 10000, 20000}, {0, 1}})
    ->ArgNames({"hz", "sysfs"})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
