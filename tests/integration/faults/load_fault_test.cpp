// A plugin that crashes or hangs while prof loads it for a listing is named
// with what happened, and the listing goes on with every other plugin.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

RunResult list_with(const std::string &fault) {
  return run_process({kProf, "--plugin-path",
                      (fs::path(PROF_FAULT_PLUGIN_DIR) / (fault + "-on-load")).string(),
                      "--plugin-list"},
                     {}, std::chrono::seconds(60));
}

TEST(LoadFault, APluginThatCrashesWhileLoadingIsNamedAndTheListGoesOn) {
  const RunResult r = list_with("crash");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("libprof-crash-on-load.so: crashed while loading (SIGSEGV)"));
  EXPECT_THAT(r.out, HasSubstr("cpu-util")) << "the other plugins are listed";
}

// A capture loads only the plugins it uses: a broken one beside them,
// which would crash prof as it loads, is never loaded.
TEST(LoadFault, ACaptureNeverLoadsPluginsItDoesNotUse) {
  for (const std::string fault : {"crash", "hang"}) {
    const fs::path report = fs::temp_directory_path() /
                            ("prof-unused-" + fault + "-" + std::to_string(getpid()) + ".profrep");
    const RunResult r =
        run_process({kProf, "--quiet", "--plugin-path",
                     (fs::path(PROF_FAULT_PLUGIN_DIR) / (fault + "-on-load")).string(), "--trace",
                     "osrt", "-o", report.string(), "/bin/sh", "-c", "exit 3"},
                    {}, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 3) << fault << ": " << r.describe();
    EXPECT_TRUE(fs::exists(report)) << fault;
    fs::remove(report);
  }
}

TEST(LoadFault, APluginThatHangsWhileLoadingIsNamedAfterATimeLimit) {
  const RunResult r = list_with("hang");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("libprof-hang-on-load.so: did not finish loading within 10 s"));
  EXPECT_THAT(r.out, HasSubstr("cpu-util"));
}

} // namespace
} // namespace prof::e2e

namespace prof::e2e {
namespace {

// A source whose configure never returns: prof says which plugin hung in
// what, after its time limit, and ends; the application, already waiting at
// prof's gate, runs on without it.
TEST(LoadFault, AConfigureThatNeverReturnsEndsProfWithOneLine) {
  const fs::path marker = fs::temp_directory_path() / ("prof-hang-" + std::to_string(getpid()));
  const RunResult r = run_process({kProf, "--plugin-path",
                                   (fs::path(PROF_FAULT_PLUGIN_DIR) / "hang-configure").string(),
                                   "--plugin", "hang-configure", "touch", marker.string()},
                                  {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(r.err, "prof: plugin 'hang-configure': configure did not return within 10 s; the "
                   "plugin hangs, and prof gives up\n");
  for (int i = 0; i < 100 && !fs::exists(marker); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(fs::exists(marker)) << "the application runs without prof";
  fs::remove(marker);
}

} // namespace
} // namespace prof::e2e
