// The built cpu-util plugin as the host sees it: dlopen() the .so, read the
// descriptor, and run the source for real against this test process.
#include "tests/support/loaded_plugin.hpp"
#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prof {
namespace {

using prof::testing::expect_common_fields;
using prof::testing::FakeSourceHost;
using prof::testing::find_option;
using prof::testing::LoadedPlugin;
using namespace std::chrono_literals;

TEST(CpuUtilPluginLoadTest, Descriptor) {
  LoadedPlugin plugin("cpu-util");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "cpu-util", PROF_KIND_SOURCE);
  ASSERT_EQ(d.option_count, 3u);
  const prof_option_desc *frequency = find_option(d, "frequency");
  ASSERT_NE(frequency, nullptr);
  EXPECT_EQ(frequency->type, PROF_OPTION_INT);
  EXPECT_STREQ(frequency->default_value, "100");
  EXPECT_EQ(frequency->min, 1);
  EXPECT_EQ(frequency->max, 1000);
  for (const char *name : {"cpu", "memory"}) {
    const prof_option_desc *option = find_option(d, name);
    ASSERT_NE(option, nullptr) << name;
    EXPECT_EQ(option->type, PROF_OPTION_BOOL);
    EXPECT_STREQ(option->default_value, "true");
  }
  EXPECT_EQ(d.source->struct_size, sizeof(prof_source_vtable));
}

TEST(CpuUtilPluginLoadTest, RefusesToSampleNothing) {
  LoadedPlugin plugin("cpu-util");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_source_vtable &v = *plugin.descriptor()->source;
  FakeSourceHost fake(getpid());
  fake.set_option("cpu", "false");
  fake.set_option("memory", "false");
  void *instance = v.create(fake.api(), &fake);
  ASSERT_NE(instance, nullptr);
  EXPECT_EQ(v.configure(instance), PROF_ERROR);
  v.destroy(instance);
  ASSERT_EQ(fake.errors().size(), 1u);
  EXPECT_EQ(fake.errors()[0],
            "cpu-util: nothing to sample: cpu and memory are both false; enable at least one");
}

TEST(CpuUtilPluginLoadTest, SamplesThisProcess) {
  LoadedPlugin plugin("cpu-util");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_source_vtable &v = *plugin.descriptor()->source;
  FakeSourceHost fake(getpid());
  fake.set_option("frequency", "50");
  void *instance = v.create(fake.api(), &fake);
  ASSERT_NE(instance, nullptr);
  ASSERT_EQ(v.configure(instance), PROF_OK);
  ASSERT_EQ(v.start(instance), PROF_OK);
  // Keep one core busy so the process tree has CPU time to report.
  const auto until = std::chrono::steady_clock::now() + 300ms;
  std::atomic<uint64_t> spins{0};
  while (std::chrono::steady_clock::now() < until)
    spins.fetch_add(1, std::memory_order_relaxed);
  ASSERT_EQ(v.stop(instance), PROF_OK);
  ASSERT_EQ(v.flush(instance), PROF_OK);
  v.destroy(instance);
  EXPECT_TRUE(fake.errors().empty());

  std::map<std::string, FakeSourceHost::Track> by_name;
  for (const auto &track : fake.tracks())
    by_name[track.name] = track;
  ASSERT_TRUE(by_name.contains("CPU utilization"));
  EXPECT_EQ(by_name["CPU utilization"].kind, PROF_TRACK_CUSTOM);
  ASSERT_TRUE(by_name.contains("cpu0 utilization"));
  EXPECT_EQ(by_name["cpu0 utilization"].index, 0);
  EXPECT_EQ(by_name["cpu0 utilization"].parent, by_name["CPU utilization"].id);
  for (const char *name : {"CPU utilization (total)", "Process tree CPU usage", "Process tree RSS",
                           "Process RSS high-water mark", "Process tree RSS peak",
                           "System memory used", "System memory used (%)"}) {
    ASSERT_TRUE(by_name.contains(name)) << name;
    EXPECT_EQ(by_name[name].kind, PROF_TRACK_COUNTER) << name;
  }
  const auto process_track = by_name["Process tree RSS"].parent;
  bool found_process = false;
  for (const auto &track : fake.tracks()) {
    if (track.id == process_track) {
      found_process = true;
      EXPECT_EQ(track.kind, PROF_TRACK_PROCESS);
      EXPECT_EQ(track.pid, getpid());
    }
  }
  EXPECT_TRUE(found_process);

  std::map<prof_track_id, std::vector<double>> values;
  for (const auto &counter : fake.counters())
    values[counter.track].push_back(counter.value);
  auto values_of = [&](const char *name) { return values[by_name[name].id]; };

  const auto total = values_of("CPU utilization (total)");
  EXPECT_GE(total.size(), 5u); // ~15 ticks at 50 Hz in 300 ms, less on a loaded machine
  // The frequency, on the plugin's own timestamps: a loaded machine delays
  // some ticks, not most, so the median gap is the period (20 ms).
  std::vector<uint64_t> gaps;
  uint64_t previous = 0;
  for (const auto &counter : fake.counters()) {
    if (counter.track != by_name["CPU utilization (total)"].id) continue;
    if (previous != 0) gaps.push_back(counter.ts - previous);
    previous = counter.ts;
  }
  ASSERT_GE(gaps.size(), 4u);
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  EXPECT_NEAR(static_cast<double>(gaps[gaps.size() / 2]) / 1e6, 20.0, 4.0)
      << "ticks 20 ms apart at 50 Hz";
  for (double v : total)
    EXPECT_TRUE(v >= 0 && v <= 100) << v;
  for (double v : values_of("cpu0 utilization"))
    EXPECT_TRUE(v >= 0 && v <= 100) << v;
  for (double v : values_of("System memory used (%)"))
    EXPECT_TRUE(v > 0 && v <= 100) << v;

  const auto tree_cpu = values_of("Process tree CPU usage");
  ASSERT_FALSE(tree_cpu.empty());
  double sum = 0;
  for (double v : tree_cpu) {
    EXPECT_TRUE(v >= 0 && std::isfinite(v)) << v;
    sum += v;
  }
  EXPECT_GT(sum / tree_cpu.size(), 5.0); // one thread spun the whole time
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  EXPECT_LT(sum / tree_cpu.size(), 150.0 * cpus); // ticks are coarse, the mean is not

  for (double v : values_of("Process tree RSS"))
    EXPECT_GT(v, 0);
  for (double v : values_of("Process RSS high-water mark"))
    EXPECT_GT(v, 0);
  for (double v : values_of("System memory used"))
    EXPECT_GT(v, 0);

  const auto timestamps = [&] {
    std::vector<uint64_t> ts;
    for (const auto &counter : fake.counters())
      if (counter.track == by_name["CPU utilization (total)"].id) ts.push_back(counter.ts);
    return ts;
  }();
  EXPECT_TRUE(std::is_sorted(timestamps.begin(), timestamps.end()));
}

TEST(CpuUtilPluginLoadTest, CountsAChildProcessOnce) {
  LoadedPlugin plugin("cpu-util");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_source_vtable &v = *plugin.descriptor()->source;
  FakeSourceHost fake(getpid());
  fake.set_option("frequency", "50");
  fake.set_option("memory", "false");
  void *instance = v.create(fake.api(), &fake);
  ASSERT_NE(instance, nullptr);
  ASSERT_EQ(v.configure(instance), PROF_OK);
  ASSERT_EQ(v.start(instance), PROF_OK);
  std::this_thread::sleep_for(50ms);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Burn 250 ms of CPU, however long that takes on a busy machine.
    timespec used{};
    do {
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
    } while (used.tv_sec * 1000000000LL + used.tv_nsec < 250000000LL);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  std::this_thread::sleep_for(100ms); // the reaped child's time now sits in our cutime
  ASSERT_EQ(v.stop(instance), PROF_OK);
  v.destroy(instance);

  prof_track_id tree = 0;
  for (const auto &track : fake.tracks())
    if (track.name == "Process tree CPU usage") tree = track.id;
  ASSERT_NE(tree, 0u);
  // Integrate percent of one CPU over time back into CPU seconds.
  double cpu_seconds = 0;
  uint64_t previous_ts = 0;
  for (const auto &counter : fake.counters()) {
    if (counter.track != tree) continue;
    const double interval = previous_ts == 0 ? 0.02 : (counter.ts - previous_ts) / 1e9;
    cpu_seconds += counter.value / 100.0 * interval;
    previous_ts = counter.ts;
  }
  // 0.25 s by the child, a little by this process; twice that would mean
  // the child was counted both live and again in our cutime.
  EXPECT_GT(cpu_seconds, 0.15);
  EXPECT_LT(cpu_seconds, 0.40);
}

TEST(CpuUtilPluginLoadTest, StopsPromptlyAtLowFrequency) {
  LoadedPlugin plugin("cpu-util");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_source_vtable &v = *plugin.descriptor()->source;
  FakeSourceHost fake(getpid());
  fake.set_option("frequency", "1");
  void *instance = v.create(fake.api(), &fake);
  ASSERT_NE(instance, nullptr);
  ASSERT_EQ(v.configure(instance), PROF_OK);
  ASSERT_EQ(v.start(instance), PROF_OK);
  std::this_thread::sleep_for(50ms);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(v.stop(instance), PROF_OK);
  EXPECT_LT(std::chrono::steady_clock::now() - before, 200ms);
  v.destroy(instance);
}

} // namespace
} // namespace prof
