// A plugin that crashes or hangs while prof loads it for a listing is named
// with what happened, and the listing goes on with every other plugin.
#include "tests/support/process_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
const std::string kProf = (fs::path(PROF_BUILD_DIR) / "bin" / "prof").string();

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

TEST(LoadFault, APluginThatHangsWhileLoadingIsNamedAfterATimeLimit) {
  const RunResult r = list_with("hang");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("libprof-hang-on-load.so: did not finish loading within 10 s"));
  EXPECT_THAT(r.out, HasSubstr("cpu-util"));
}

} // namespace
} // namespace prof::e2e
