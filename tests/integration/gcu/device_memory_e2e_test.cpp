// Device memory end to end: prof captures a gcusim program with a known use
// of memory (a 5 MiB peak, a 3 MiB leak, a pinned block); the memory
// instants appear in the trace printout, the "Memory used" counter in the
// report, and `prof stats --report device-memory` finds the peak, what was
// live at it and the leak with the call that allocated it.
#include "gcu_e2e_fixture.hpp"
#include "gcu_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace prof::e2e {
namespace {

using ::testing::HasSubstr;

const std::string kMemoryApp = built_program("gcu-memory-app");
constexpr uint64_t kMiB = 1024 * 1024;

/// CSV fields of `line`, which has no quoted fields.
std::vector<std::string> fields(const std::string &line) {
  std::vector<std::string> out;
  std::string field;
  std::stringstream in(line);
  while (std::getline(in, field, ','))
    out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

TEST_F(GcuE2E, DeviceMemoryPeakLeakAndPinnedMemory) {
  const RunResult r = prof({"--enable-activities", "*/general/memory|Api Trace/RUNTIME/*",
                            "--print-gcu-trace", "-o", "r", kMemoryApp});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string leak_line = "gcu-memory-app: leaving 3145728 bytes allocated at ";
  const auto at = r.out.find(leak_line);
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string leaked =
      r.out.substr(at + leak_line.size(), r.out.find('\n', at) - at - leak_line.size());

  // The trace printout shows each allocation and free with its arguments.
  EXPECT_THAT(r.out, HasSubstr("alloc (operation=alloc, address=" +
                               std::to_string(std::stoull(leaked, nullptr, 16)) +
                               ", bytes=3145728, memory=device, correlation="));
  EXPECT_THAT(r.out, HasSubstr(", bytes=262144, memory=pinned, correlation="));
  EXPECT_THAT(r.out, HasSubstr("free (operation=free, address="));

  // "Memory used" follows device memory: 1, 4, 3, 5 (the peak), 3 MiB.
  const GcuReport rep = read_gcu_report(report());
  std::vector<CounterSample> used;
  for (const CounterSample &c : rep.counters)
    if (c.path == "GCU 0/Memory used") used.push_back(c);
  std::stable_sort(used.begin(), used.end(),
                   [](const auto &a, const auto &b) { return a.ts < b.ts; });
  std::vector<double> values;
  for (const CounterSample &c : used)
    values.push_back(c.value / kMiB);
  EXPECT_EQ(values, (std::vector<double>{1, 4, 3, 5, 3}));

  const RunResult stats = prof({"stats", "--report", "device-memory", "--format", "csv", report()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  std::vector<std::vector<std::string>> rows;
  for (const std::string &line : split_lines(stats.out))
    if (line.rfind("GCU 0,", 0) == 0) rows.push_back(fields(line));
  ASSERT_EQ(rows.size(), 4u) << stats.out;
  // Device,Block,Time(ns),Address,Bytes,Memory,Call,Thread
  EXPECT_EQ(rows[0][1], "peak");
  EXPECT_EQ(rows[0][4], std::to_string(5 * kMiB));
  EXPECT_GT(std::stoull(rows[0][2]), 0u);
  EXPECT_EQ(rows[1][1], "live at peak");
  EXPECT_EQ(rows[1][3], leaked);
  EXPECT_EQ(rows[1][4], std::to_string(3 * kMiB));
  EXPECT_EQ(rows[2][1], "live at peak");
  EXPECT_EQ(rows[2][4], std::to_string(2 * kMiB));
  EXPECT_EQ(rows[2][2], rows[0][2]) << "the peak is reached by the 2 MiB allocation";
  EXPECT_EQ(rows[3][1], "leak");
  EXPECT_EQ(rows[3][3], leaked);
  EXPECT_EQ(rows[3][4], std::to_string(3 * kMiB));
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][5], "device");
    EXPECT_EQ(rows[i][6], "gcuMalloc") << "the allocating call, found by its correlation id";
    EXPECT_EQ(rows[i][7].rfind("gcu-memory-app (", 0), 0u) << rows[i][7];
  }

  const RunResult table = prof({"stats", "--report", "device-memory", report()});
  ASSERT_EQ(table.exit_code, 0) << table.describe();
  EXPECT_THAT(table.out, HasSubstr("======== Device memory (GCU 0):"));
  // Pinned memory counts among the allocations but not toward the peak.
  EXPECT_THAT(table.out, HasSubstr("GCU 0: 4 allocations, 3 frees; peak 5.00MiB at "));
  EXPECT_THAT(table.out, HasSubstr("1 block (3.00MiB) never freed"));
}

TEST_F(GcuE2E, DeviceMemoryReportWithoutMemoryEventsSaysSo) {
  const RunResult r = prof({"--enable-activities", "*/general/operator", "-o", "r", kMemoryApp});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const RunResult stats = prof({"stats", "--report", "device-memory", report()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_EQ(stats.out, "======== Device memory: no device memory events in this report\n");
}

} // namespace
} // namespace prof::e2e
