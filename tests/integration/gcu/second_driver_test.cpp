// A second vendor: the acme driver (second_driver/) names its engines,
// activities, labels and API nothing like gcusim does, and says what its
// activities are through the driver interface. Flows, copy statistics and
// the summary must work for it exactly as for gcusim.
#include "gcu_e2e_fixture.hpp"
#include "gcu_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace prof::e2e {
namespace {

using ::testing::HasSubstr;

const std::string kAcmeApp = built_program("acme-app");

TEST_F(GcuE2E, SecondVendorsDriverGetsFlowsCopyStatisticsAndTheSummary) {
  const RunResult r = prof({"--enable-activities", "all", "-o", "r", kAcmeApp});
  ASSERT_EQ(r.exit_code, 0) << r.describe();

  // The summary lists its jobs as device activities and its calls as API calls.
  EXPECT_THAT(r.out, HasSubstr("job-A"));
  EXPECT_THAT(r.out, HasSubstr("job-B"));
  EXPECT_THAT(r.out, HasSubstr("acmeRun"));
  EXPECT_THAT(r.out, HasSubstr("acmeCopyIn"));

  const GcuReport rep = read_gcu_report(report());
  std::map<std::string, int> by_name;
  std::map<uint16_t, uint64_t> bytes_by_kind;
  for (const DeviceSlice &s : rep.device) {
    ++by_name[s.name];
    bytes_by_kind[s.kind] += s.bytes;
    // Every piece of work ends the flow from the call that launched it.
    EXPECT_EQ(rep.flow_ends.count(s.id), 1u) << s.name;
    EXPECT_EQ(rep.flow_begins.count(s.id), 1u) << s.name;
  }
  EXPECT_EQ(by_name["job-A"], 3);
  EXPECT_EQ(by_name["job-B"], 3);
  EXPECT_EQ(by_name["In"], 3);
  EXPECT_EQ(by_name["Out"], 3);
  EXPECT_EQ(by_name["Zero"], 3);
  EXPECT_EQ(bytes_by_kind[PROF_CATEGORY_MEMCPY_HTOD], 3u * 4096);
  EXPECT_EQ(bytes_by_kind[PROF_CATEGORY_MEMCPY_DTOH], 3u * 512);
  EXPECT_EQ(bytes_by_kind[PROF_CATEGORY_MEMSET], 3u * 1024);
  int calls = 0;
  for (const HostSlice &s : rep.host)
    if (s.kind == PROF_CATEGORY_RUNTIME_API) ++calls;
  EXPECT_EQ(calls, 15);

  // Copy statistics by direction, from the copies' categories and sizes.
  const RunResult stats = prof({"stats", "--report", "memcpy-size,memcpy-time", report()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(stats.out, HasSubstr("DtoH           3   1536   512   512   512"));
  EXPECT_THAT(stats.out, HasSubstr("HtoD           3  12288  4096  4096  4096"));
  EXPECT_THAT(stats.out, HasSubstr("Memset         3   3072  1024  1024  1024"));
  EXPECT_THAT(stats.out, HasSubstr("In"));
  EXPECT_THAT(stats.out, HasSubstr("Zero"));
}

} // namespace
} // namespace prof::e2e
