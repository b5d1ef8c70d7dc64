// prof -t cuda where there is no CUDA driver: one warning, the rest of the
// capture proceeds, the application runs unharmed and keeps its exit code.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

bool driver_present() {
  void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver) dlclose(driver);
  return driver != nullptr;
}

size_t lines_with(const std::string &text, const std::string &part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

class CudaE2E : public ::testing::Test {
protected:
  prof::testing::ScratchDir scratch_{"prof-cuda", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(CudaE2E, WithoutADriverOneWarningAndTheCaptureGoesOn) {
  if (driver_present()) GTEST_SKIP() << "this machine has a CUDA driver: tools/gpu-check covers it";
  const fs::path report = dir_ / "r.profrep";
  const RunResult r = run_process({kProf, "-t", "cuda,osrt", "--gpu-metrics-frequency", "50",
                                   "--export-profile", report.string(), kWorkload, "--seconds",
                                   "0.2", "--lock-wait-ms", "50", "--exit-code", "3"},
                                  dir_, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("workload done")) << r.describe();
  EXPECT_EQ(lines_with(r.err, "no CUDA driver: "), 1u) << r.describe();
  EXPECT_EQ(lines_with(r.err, "no GPU metrics: "), 1u) << r.describe();
  // The other source's events are all there.
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string())) << r.describe();
  const auto events = reader.read_all_events();
  EXPECT_TRUE(std::any_of(events.begin(), events.end(), [&](const prof_event &e) {
    return e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_OTHER;
  }));
  EXPECT_FALSE(std::any_of(events.begin(), events.end(),
                           [](const prof_event &e) { return e.kind == PROF_CATEGORY_KERNEL; }));
}

TEST_F(CudaE2E, PluginListShowsTheCudaSourceAndItsOptions) {
  const RunResult list = run_process({kProf, "--plugin-list"}, dir_, std::chrono::seconds(60));
  EXPECT_EQ(list.exit_code, 0) << list.describe();
  EXPECT_THAT(list.out, HasSubstr("libprof-cuda.so"));
  const RunResult help =
      run_process({kProf, "--plugin", "cuda help"}, dir_, std::chrono::seconds(60));
  EXPECT_EQ(help.exit_code, 0) << help.describe();
  EXPECT_THAT(help.out, HasSubstr("metrics-frequency"));
  EXPECT_THAT(help.out, HasSubstr("graph-trace"));
}

TEST_F(CudaE2E, BadCudaOptionsAreRefusedBeforeAnythingRuns) {
  const RunResult r = run_process({kProf, "-t", "cuda", "--gpu-metrics-frequency", "5000",
                                   "--export-profile", (dir_ / "r.profrep").string(), kWorkload},
                                  dir_, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("--gpu-metrics-frequency"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.describe();
  EXPECT_FALSE(fs::exists(dir_ / "r.profrep"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("workload done")));
}

} // namespace
} // namespace prof::e2e
