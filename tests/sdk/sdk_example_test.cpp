// Installs the SDK, builds the out-of-tree example plugin against it and
// runs a capture with it.
#include "core/report/report_reader.hpp"

#include "tests/support/build_paths.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {
struct Result {
  int status;
  std::string output;
};

Result run(const std::string &command) {
  Result result{-1, ""};
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string quote(const fs::path &p) { return "'" + p.string() + "'"; }
} // namespace

TEST(SdkExample, BuildsOutOfTreeAndLoadsIntoProf) {
  const fs::path work = fs::temp_directory_path() / ("prof-sdk-" + std::to_string(getpid()));
  fs::remove_all(work);
  const std::string cmake = PROF_CMAKE_COMMAND;
  Result install = run(cmake + " --install " + quote(prof::e2e::kBuildDir) +
                       " --component sdk --prefix " + quote(work / "prefix"));
  ASSERT_EQ(install.status, 0) << install.output;
  ASSERT_TRUE(fs::exists(work / "prefix/include/prof/plugin.h"));
  ASSERT_TRUE(fs::exists(work / "prefix/lib/cmake/ProfSDK/ProfSDKConfig.cmake"));
  ASSERT_TRUE(fs::exists(work / "prefix/lib/cmake/ProfSDK/ProfSDKConfigVersion.cmake"));
  // The libraries a vendor's plugin may link, and the fake hosts for its tests.
  ASSERT_TRUE(fs::exists(work / "prefix/lib/libprof-stats.a"));
  ASSERT_TRUE(fs::exists(work / "prefix/lib/libprof-activity.a"));
  ASSERT_TRUE(fs::exists(work / "prefix/include/prof/stats/summary_tables.hpp"));
  ASSERT_TRUE(fs::exists(work / "prefix/include/prof/testing/fake_export_host.hpp"));

  std::string sanitize;
  if (const std::string flags = PROF_SANITIZE_FLAGS; !flags.empty())
    for (const char *variable : {"CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS",
                                 "CMAKE_MODULE_LINKER_FLAGS", "CMAKE_SHARED_LINKER_FLAGS"})
      sanitize += std::string(" -D") + variable + "='" + flags + "'";
  Result configure = run(cmake + " -S " + quote(fs::path(PROF_SOURCE_DIR) / "sdk/examples") +
                         " -B " + quote(work / "build") + " -DCMAKE_PREFIX_PATH=" +
                         quote(work / "prefix") + sanitize);
  ASSERT_EQ(configure.status, 0) << configure.output;
  Result build = run(cmake + " --build " + quote(work / "build"));
  ASSERT_EQ(build.status, 0) << build.output;
  ASSERT_TRUE(fs::exists(work / "build/libprof-example-ticks.so"));
  ASSERT_TRUE(fs::exists(work / "build/libprof-example-durations.so"));
  // The exporter's own unit tests pass with the SDK's fake export host.
  const std::string ctest = (fs::path(PROF_CMAKE_COMMAND).parent_path() / "ctest").string();
  Result unit = run(ctest + " --test-dir " + quote(work / "build") + " --output-on-failure");
  ASSERT_EQ(unit.status, 0) << unit.output;
  EXPECT_NE(unit.output.find("100% tests passed"), std::string::npos) << unit.output;

  const std::string prof = quote(prof::e2e::kProf);
  const std::string plugin_path = " --plugin-path " + quote(work / "build");
  Result list = run(prof + plugin_path + " --plugin-list");
  ASSERT_EQ(list.status, 0) << list.output;
  const auto listed_as = [&](const std::string &name, const std::string &kind) {
    const size_t at = list.output.find("  " + name + " ");
    const size_t eol = list.output.find('\n', at);
    return at != std::string::npos &&
           list.output.substr(at, eol - at).find(kind) != std::string::npos;
  };
  EXPECT_TRUE(listed_as("example-ticks", "source")) << list.output;
  EXPECT_TRUE(listed_as("example-durations", "exporter")) << list.output;
  EXPECT_NE(list.output.find("prof SDK example"), std::string::npos) << list.output;

  const fs::path report = work / "ticks.profrep";
  Result capture = run(prof + plugin_path +
                       " --plugin 'example-ticks interval-ms=5 label=beat' --print-trace"
                       " --export-profile " + quote(report) + " sleep 0.3");
  ASSERT_EQ(capture.status, 0) << capture.output;
  EXPECT_NE(capture.output.find("beat"), std::string::npos) << capture.output;

  // The exporter linked with prof::stats and prof::activity runs inside prof.
  Result durations = run(prof + plugin_path +
                         " --plugin 'example-ticks interval-ms=5 label=beat'"
                         " --plugin 'example-durations names=BEAT' sleep 0.2");
  ASSERT_EQ(durations.status, 0) << durations.output;
  EXPECT_NE(durations.output.find("Time(%)"), std::string::npos) << durations.output;
  EXPECT_NE(durations.output.find("beat"), std::string::npos) << durations.output;

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  std::vector<uint64_t> beats;
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_SLICE && reader.string(e.name) == "beat") beats.push_back(e.ts);
  EXPECT_GE(beats.size(), 20u); // 300 ms at one tick per 5 ms, with slack for a loaded machine
  // The interval option reached the plugin: on its own timestamps, the
  // median gap between beats is 5 ms (a loaded machine delays some, not most).
  ASSERT_GE(beats.size(), 3u);
  std::sort(beats.begin(), beats.end());
  std::vector<uint64_t> gaps;
  for (size_t i = 1; i < beats.size(); ++i)
    gaps.push_back(beats[i] - beats[i - 1]);
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  EXPECT_NEAR(static_cast<double>(gaps[gaps.size() / 2]) / 1e6, 5.0, 1.5);
  fs::remove_all(work);
}
