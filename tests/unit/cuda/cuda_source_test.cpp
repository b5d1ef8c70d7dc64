// The cuda source's options and its start where the machine has no CUDA
// driver (these VMs): one warning, nothing recorded, no failure.
#include "cuda_injection.hpp"
#include "cuda_source.hpp"

#include <prof/testing/fake_source_host.hpp>

#include "tests/support/loaded_plugin.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace prof::cuda {
namespace {

using Fake = prof::testing::FakeSourceHost;

TEST(CudaOptions, DefaultsTraceTheRuntimeAndMemory) {
  Fake host;
  const CudaOptions options = read_cuda_options(Host(host.api(), &host));
  EXPECT_TRUE(options.runtime_api);
  EXPECT_FALSE(options.driver_api);
  EXPECT_TRUE(options.memory);
  EXPECT_FALSE(options.graph_level);
  EXPECT_FALSE(options.metrics);
  EXPECT_LT(options.buffer_bytes, options.budget_bytes);
}

TEST(CudaOptions, ReadsEveryOption) {
  Fake host;
  host.set_option("api", "all");
  host.set_option("memory-usage", "false");
  host.set_option("graph-trace", "graph");
  host.set_option("device-buffer-size", "16");
  host.set_option("watermark-threshold", "4");
  host.set_option("host-ringbuffer-size", "32");
  host.set_option("flush-period", "0");
  host.set_option("metrics", "true");
  host.set_option("metrics-frequency", "1000");
  const CudaOptions options = read_cuda_options(Host(host.api(), &host));
  EXPECT_TRUE(options.runtime_api && options.driver_api);
  EXPECT_FALSE(options.memory);
  EXPECT_TRUE(options.graph_level);
  EXPECT_EQ(options.device_buffer_bytes, 16u << 20);
  EXPECT_EQ(options.buffer_bytes, 4u << 20);
  EXPECT_EQ(options.budget_bytes, 32u << 20);
  EXPECT_EQ(options.flush_period_ms, 0u);
  EXPECT_TRUE(options.metrics);
  EXPECT_EQ(options.metrics_hz, 1000);
}

TEST(CudaOptions, WatermarkMustBeBelowTheRing) {
  Fake host;
  host.set_option("watermark-threshold", "8");
  host.set_option("host-ringbuffer-size", "8");
  CudaSource source(Host(host.api(), &host));
  EXPECT_FALSE(source.configure());
  ASSERT_EQ(host.errors().size(), 1u);
  EXPECT_EQ(host.errors()[0],
            "watermark-threshold (8 MB) must be below host-ringbuffer-size (8 MB)");
}

TEST(CudaOptions, TheDefaultWatermarkFollowsTheSmallestRing) {
  // prof-plugin-check found the table's smallest ring (2) refused beside
  // the default watermark (2).
  Fake host;
  host.set_option("host-ringbuffer-size", "2");
  const CudaOptions options = read_cuda_options(Host(host.api(), &host));
  EXPECT_EQ(options.buffer_bytes, 1u << 20);
  EXPECT_EQ(options.budget_bytes, 2u << 20);
}

TEST(CudaOptions, OptionTableStatesRangesAndChoices) {
  const prof::testing::LoadedPlugin plugin("cuda");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  EXPECT_STREQ(d.name, "cuda");
  EXPECT_EQ(d.scope, PROF_SCOPE_PROCESS);
  auto find = [&](const char *name) { return prof::testing::find_option(d, name); };
  const prof_option_desc *frequency = find("metrics-frequency");
  ASSERT_NE(frequency, nullptr);
  EXPECT_EQ(frequency->min, 1);
  EXPECT_EQ(frequency->max, 1000);
  ASSERT_NE(find("api"), nullptr);
  EXPECT_STREQ(find("api")->choices, "none,runtime,driver,all");
  ASSERT_NE(find("graph-trace"), nullptr);
  EXPECT_STREQ(find("graph-trace")->choices, "node,graph");
  ASSERT_NE(find("device-buffer-size"), nullptr);
  EXPECT_EQ(find("device-buffer-size")->max, 64);
  ASSERT_NE(find("cupti"), nullptr);
  EXPECT_NE(std::string(find("cupti")->default_value).find("libcupti"), std::string::npos);
  // Reading the descriptor loads neither CUPTI nor the driver.
  EXPECT_EQ(dlopen(find("cupti")->default_value, RTLD_NOW | RTLD_NOLOAD), nullptr);
}

TEST(CudaSource, WithoutADriverWarnsOnceAndRecordsNothing) {
  std::string missing;
  if (cuda_driver_installed(missing)) GTEST_SKIP() << "this machine has a CUDA driver";
  Fake host(getpid());
  CudaSource source(Host(host.api(), &host));
  ASSERT_TRUE(source.configure());
  EXPECT_TRUE(source.start());
  EXPECT_TRUE(source.suspend());
  EXPECT_TRUE(source.resume());
  EXPECT_TRUE(source.flush());
  EXPECT_TRUE(source.stop());
  const auto warnings = host.logs(PROF_LOG_WARN);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "no CUDA driver: " + missing + "; the cuda source records nothing");
  EXPECT_EQ(std::getenv("CUDA_INJECTION64_PATH"), nullptr);
  EXPECT_TRUE(host.slices().empty());
  EXPECT_TRUE(host.errors().empty());
}

TEST(CudaSource, MetricsWithoutNvmlWarnAndTheCaptureGoesOn) {
  Fake host(getpid());
  host.set_option("metrics", "true");
  host.set_option("nvml", "/nonexistent/libnvidia-ml.so.1");
  CudaSource source(Host(host.api(), &host));
  ASSERT_TRUE(source.configure());
  EXPECT_TRUE(source.start());
  EXPECT_TRUE(source.stop());
  EXPECT_TRUE(host.logged(PROF_LOG_WARN, "no GPU metrics: cannot load NVML (/nonexistent/"));
  EXPECT_TRUE(host.counters().empty());
}

TEST(CudaInjection, TheDriversCallStartsWhatWaitsOnce) {
  int starts = 0;
  wait_for_cuda([&starts] { ++starts; });
  EXPECT_EQ(InitializeInjection(), 1);
  EXPECT_EQ(InitializeInjection(), 1);
  EXPECT_EQ(starts, 1);
  wait_for_cuda([&starts] { ++starts; });
  stop_waiting_for_cuda();
  EXPECT_EQ(InitializeInjection(), 1);
  EXPECT_EQ(starts, 1);
}

TEST(CudaInjection, PointsCudaAtThePluginUnlessTheUserChoseAnother) {
  unsetenv("CUDA_INJECTION64_PATH");
  EXPECT_EQ(point_cuda_at_this_library(), "");
  const char *self = std::getenv("CUDA_INJECTION64_PATH");
  ASSERT_NE(self, nullptr);
  EXPECT_NE(std::string(self).find("cuda_plugin_test"), std::string::npos) << self;
  setenv("CUDA_INJECTION64_PATH", "/opt/other/libinject.so", 1);
  EXPECT_EQ(point_cuda_at_this_library(),
            "CUDA_INJECTION64_PATH names /opt/other/libinject.so, which is loaded instead of "
            "prof; CUDA activity is not recorded");
  unsetenv("CUDA_INJECTION64_PATH");
}

TEST(CudaInjection, FindsTheDriverWithoutLoadingIt) {
  const std::string folder = ::testing::TempDir() + "prof-cuda-driver";
  std::filesystem::create_directories(folder);
  const char *saved = std::getenv("LD_LIBRARY_PATH");
  const std::string old = saved ? saved : "";
  std::string where;
  if (cuda_driver_installed(where)) GTEST_SKIP() << "this machine has a CUDA driver";
  EXPECT_EQ(where.rfind("libcuda.so.1 is not in /etc/ld.so.cache", 0), 0u) << where;
  std::ofstream(folder + "/libcuda.so.1") << "not a library";
  setenv("LD_LIBRARY_PATH", (folder + ":" + old).c_str(), 1);
  EXPECT_TRUE(cuda_driver_installed(where));
  EXPECT_FALSE(cuda_driver_loaded());
  setenv("LD_LIBRARY_PATH", old.c_str(), 1);
  std::filesystem::remove_all(folder);
}

} // namespace
} // namespace prof::cuda
