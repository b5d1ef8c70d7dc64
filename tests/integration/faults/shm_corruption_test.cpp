// An application that writes random bytes over its prof shared region (a
// wild pointer) never hangs or crashes prof: the capture ends, the report
// reads, and prof says what it abandoned. Several seeds: each hits other
// parts of the region.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const std::string kScribbler = test_program("shm-scribbler");

class ShmCorruption : public ::testing::TestWithParam<int> {
protected:
  prof::testing::ScratchDir scratch_{"prof-faults", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_P(ShmCorruption, ProfFinishesAndItsReportReads) {
  const fs::path report = dir_ / "r.profrep";
  const RunResult r =
      run_process({kProf, "--trace", "osrt", "--osrt-threshold", "0", "--export-profile",
                   report.string(), kScribbler, std::to_string(GetParam())},
                  dir_, std::chrono::seconds(60));
  ASSERT_FALSE(r.timed_out) << "prof hung\n" << r.describe();
  EXPECT_EQ(r.signal, 0) << r.describe();
  // The application's own fate is its own (it wrote over its agent's memory
  // too): prof reports its exit code, whatever it is, and never crashes.
  EXPECT_NE(r.exit_code, 134) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string())) << r.describe();
  EXPECT_TRUE(reader.problems().empty()) << reader.problems().front();
  reader.read_all_events(); // every event decodes
}

INSTANTIATE_TEST_SUITE_P(Seeds, ShmCorruption, ::testing::Values(1, 2, 3, 4, 5, 6, 7, 8));

} // namespace
} // namespace prof::e2e
