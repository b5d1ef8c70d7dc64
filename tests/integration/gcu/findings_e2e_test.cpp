// `prof stats --report findings` and the capture summary's findings on real
// captures of the gcusim programs: gcu-add copies synchronously
// (gcuMemcpyH2D, gcuMemcpyD2H); gcu-train-step asynchronously on a stream,
// but for its parameters' first upload.
#include "gcu_e2e_fixture.hpp"

#include <gmock/gmock.h>

namespace prof::e2e {
namespace {

using ::testing::HasSubstr;

/// The line of `csv` that starts with `rule`, "" when none.
std::string row_of(const std::string &csv, const std::string &rule) {
  for (const std::string &line : split_lines(csv))
    if (line.starts_with(rule + ",")) return line;
  return "";
}

TEST_F(GcuE2E, FindingsNameTheSynchronousCopiesOfACapture) {
  const RunResult r =
      prof({"--enable-activities", "all", "-o", "r", kAdd, "--iterations", "3", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("======== Findings (evidence and what to try: prof stats "
                               "--report findings REPORT, docs/findings.md):"));
  EXPECT_THAT(r.out, HasSubstr(" memory copies were synchronous"));

  const RunResult stats = prof({"stats", "--report", "findings", "--format", "csv", report()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  // A copy's device time is converted from the device's clock: on a loaded
  // machine one may seem to end after its call, so the counts are not fixed.
  const std::string copies = row_of(stats.out, "sync-copy");
  EXPECT_THAT(copies, HasSubstr("Memcpy HtoD by gcuMemcpyH2D x")) << stats.out;
  EXPECT_THAT(copies, HasSubstr("Memcpy DtoH by gcuMemcpyD2H x")) << stats.out;
  // gcusim's copies do not say which host memory they used.
  EXPECT_THAT(stats.out, HasSubstr("# not checked: pageable-copy: no copy names its host memory"));
}

// Its one synchronous copy is found among the asynchronous ones (which a
// loaded machine may make look synchronous now and then: the unit tests
// show they are left out), and its waits for the stream.
TEST_F(GcuE2E, FindingsFindTheSynchronousCopyAndTheWaitsOfATrainingLoop) {
  const RunResult r =
      prof({"--enable-activities", "all", "-o", "r", built_program("gcu-train-step")});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const RunResult stats = prof({"stats", "--report", "findings", "--format", "csv", report()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(row_of(stats.out, "sync-copy"), HasSubstr("Memcpy HtoD by gcuMemcpyH2D x1 ("))
      << stats.out;
  // gcusim says which calls wait for the device (driver 1.3): they stay API
  // calls in the summary and are the host's waits in the findings.
  EXPECT_THAT(r.out, HasSubstr("gcuStreamSynchronize"));
  EXPECT_THAT(row_of(stats.out, "sync-api"), HasSubstr("gcuStreamSynchronize x3 (")) << stats.out;
}

} // namespace
} // namespace prof::e2e
