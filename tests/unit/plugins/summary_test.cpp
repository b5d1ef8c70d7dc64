// The summary exporter on synthetic events: aggregation, grouping, modes
// and the exact text it prints.
#include "summary_exporter.hpp"
#include <prof/testing/fake_export_host.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace prof::summary {
namespace {

using prof::testing::FakeExportHost;
using Lines = std::vector<std::string>;

class SummaryTest : public ::testing::Test {
protected:
  void SetUp() override {
    gcu0 = fake.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    sip0 =
        fake.add_track(PROF_TRACK_ENGINE, "SIP 0", fake.add_track(PROF_TRACK_CLUSTER, "C0", gcu0));
    gcu1 = fake.add_track(PROF_TRACK_DEVICE, "GCU 1", 0, 0, 0, 1);
    sip1 = fake.add_track(PROF_TRACK_ENGINE, "SIP 0", gcu1);
    thread = fake.add_track(PROF_TRACK_THREAD, "main", fake.add_track(PROF_TRACK_PROCESS, "app"));
    cpu10 = fake.add_track(PROF_TRACK_COUNTER, "cpu10 utilization", 0, 0, 0, 10, "%");
    cpu2 = fake.add_track(PROF_TRACK_COUNTER, "cpu2 utilization", 0, 0, 0, 2, "%");
    rss = fake.add_track(PROF_TRACK_COUNTER, "Process tree RSS", 0, 0, 0, -1, "bytes");
  }

  /// A handful of events, split into batches that are not in time order.
  std::vector<std::vector<prof_event>> batches() {
    return {{fake.slice(sip0, "conv", 5000, 2000000), fake.slice(sip0, "copy", 9000, 15620),
             fake.slice(sip1, "conv", 100, 3000000), fake.counter(cpu10, 1, 10)},
            {fake.slice(thread, "topsLaunchKernel", 50, 5000, "api"),
             fake.slice(thread, "read", 70, 999999, "osrt"),
             fake.slice(thread, "topsLaunchKernel", 20, 7000, "api"),
             fake.slice(thread, "step", 10, 1200000000, "nvtx"), fake.counter(cpu10, 2, 20),
             fake.counter(cpu2, 1, 50), fake.counter(rss, 1, 1048576),
             fake.counter(rss, 2, 3.0 * 1048576), fake.instant(thread, "mark", 5)},
            {fake.slice(sip0, "conv", 1000, 1000000), fake.slice(sip1, "copy", 4000, 4380)}};
  }

  Lines run(const std::string &mode = "") {
    if (!mode.empty()) fake.set_option("mode", mode);
    SummaryExporter exporter(fake.host());
    EXPECT_TRUE(exporter.begin());
    for (const auto &batch : batches())
      EXPECT_TRUE(exporter.consume(batch.data(), batch.size()));
    EXPECT_TRUE(exporter.end());
    return fake.printed();
  }

  FakeExportHost fake;
  prof_track_id gcu0, sip0, gcu1, sip1, thread, cpu10, cpu2, rss;
};

TEST_F(SummaryTest, PrintsStatisticsTableAndCounters) {
  const Lines expected{
      "======== Profiling result:",
      "          Type  Time(%)     Time  Calls      Avg     Min      Max  Name",
      "GCU activites:   99.67%   6.00ms      3   2.00ms  1.00ms   3.00ms  conv",
      "                  0.33%  20.00us      2  10.00us  4.38us  15.62us  copy",
      "    API calls:  100.00%  12.00us      2   6.00us  5.00us   7.00us  topsLaunchKernel",
      "   OS runtime:  100.00%   1.00ms      1   1.00ms  1.00ms   1.00ms  read",
      "       Ranges:  100.00%    1.20s      1    1.20s   1.20s    1.20s  step",
      "======== Counters:",
      "    Min      Avg      Max  Unit   Name",
      "1.00MiB  2.00MiB  3.00MiB  bytes  Process tree RSS",
      " 50.00%   50.00%   50.00%  %      cpu2 utilization",
      " 10.00%   15.00%   20.00%  %      cpu10 utilization",
  };
  EXPECT_EQ(run(), expected);
}

// A finding is a line after the tables (the test above has none): a copy
// whose call waited for it.
TEST_F(SummaryTest, PrintsALinePerFinding) {
  prof_event call = fake.slice(thread, "rtMemcpy", 0, 500'000, "api");
  call.kind = PROF_CATEGORY_RUNTIME_API;
  call.id = 7;
  prof_event copy = fake.slice(sip0, "Memcpy HtoD", 100'000, 300'000);
  copy.kind = PROF_CATEGORY_MEMCPY_HTOD;
  copy.id = 7;
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.consume(&copy, 1));
  ASSERT_TRUE(exporter.consume(&call, 1));
  ASSERT_TRUE(exporter.end());
  const Lines printed = fake.printed();
  ASSERT_GE(printed.size(), 2u);
  EXPECT_EQ(Lines(printed.end() - 2, printed.end()),
            (Lines{"======== Findings (evidence and what to try: prof stats --report findings "
                   "REPORT, docs/findings.md):",
                   "high sync-copy: 1 memory copy was synchronous: the host call returned only "
                   "after the device had done the work (500.00us)"}));
}

TEST_F(SummaryTest, GcuModePrintsDeviceActivitiesOnly) {
  const Lines expected{
      "======== Profiling result:",
      "          Type  Time(%)     Time  Calls      Avg     Min      Max  Name",
      "GCU activites:   99.67%   6.00ms      3   2.00ms  1.00ms   3.00ms  conv",
      "                  0.33%  20.00us      2  10.00us  4.38us  15.62us  copy",
  };
  EXPECT_EQ(run("gcu"), expected);
}

TEST_F(SummaryTest, ApiModePrintsApiCallsOnly) {
  const Lines expected{
      "======== Profiling result:",
      "      Type  Time(%)     Time  Calls     Avg     Min     Max  Name",
      "API calls:  100.00%  12.00us      2  6.00us  5.00us  7.00us  topsLaunchKernel",
  };
  EXPECT_EQ(run("api"), expected);
}

TEST_F(SummaryTest, PerGcuModeSplitsDevices) {
  const Lines expected{
      "======== Profiling result (GCU 0):",
      "          Type  Time(%)     Time  Calls      Avg      Min      Max  Name",
      "GCU activites:   99.48%   3.00ms      2   1.50ms   1.00ms   2.00ms  conv",
      "                  0.52%  15.62us      1  15.62us  15.62us  15.62us  copy",
      "======== Profiling result (GCU 1):",
      "          Type  Time(%)    Time  Calls     Avg     Min     Max  Name",
      "GCU activites:   99.85%  3.00ms      1  3.00ms  3.00ms  3.00ms  conv",
      "                  0.15%  4.38us      1  4.38us  4.38us  4.38us  copy",
      "======== Profiling result (host):",
      "       Type  Time(%)     Time  Calls     Avg     Min     Max  Name",
      " API calls:  100.00%  12.00us      2  6.00us  5.00us  7.00us  topsLaunchKernel",
      "OS runtime:  100.00%   1.00ms      1  1.00ms  1.00ms  1.00ms  read",
      "    Ranges:  100.00%    1.20s      1   1.20s   1.20s   1.20s  step",
      "======== Counters:",
      "    Min      Avg      Max  Unit   Name",
      "1.00MiB  2.00MiB  3.00MiB  bytes  Process tree RSS",
      " 50.00%   50.00%   50.00%  %      cpu2 utilization",
      " 10.00%   15.00%   20.00%  %      cpu10 utilization",
  };
  EXPECT_EQ(run("per-gcu"), expected);
}

TEST_F(SummaryTest, EqualNamesOnDifferentEnginesMergeAndTiesSortByName) {
  fake.set_option("mode", "gcu");
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  const std::vector<prof_event> events{fake.slice(sip0, "b", 0, 500), fake.slice(sip1, "a", 0, 250),
                                       fake.slice(sip0, "a", 9, 250)};
  ASSERT_TRUE(exporter.consume(events.data(), events.size()));
  ASSERT_TRUE(exporter.end());
  const Lines expected{
      "======== Profiling result:",
      "          Type  Time(%)      Time  Calls       Avg       Min       Max  Name",
      "GCU activites:   50.00%  500.00ns      2  250.00ns  250.00ns  250.00ns  a",
      "                 50.00%  500.00ns      1  500.00ns  500.00ns  500.00ns  b",
  };
  EXPECT_EQ(fake.printed(), expected);
}

TEST_F(SummaryTest, NoEventsSaysSo) {
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.end());
  EXPECT_EQ(fake.printed(), Lines{"======== Profiling result: no events were collected"});
}

TEST_F(SummaryTest, FilteredModeWithoutMatchesSaysWhatIsMissing) {
  fake.set_option("mode", "gcu");
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  const prof_event api = fake.slice(thread, "topsMalloc", 0, 10, "api");
  ASSERT_TRUE(exporter.consume(&api, 1));
  ASSERT_TRUE(exporter.end());
  EXPECT_EQ(fake.printed(), Lines{"======== Profiling result: no GCU activities were collected"});
}

TEST_F(SummaryTest, WarnsAboutEveryLossByCause) {
  fake.set_dropped(42);
  fake.set_dropped(5, PROF_DROP_KERNEL_LOST);
  fake.set_dropped(3, PROF_DROP_INVALID_EVENT);
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.end());
  const Lines printed = fake.printed();
  ASSERT_GE(printed.size(), 3u);
  EXPECT_EQ(Lines(printed.end() - 3, printed.end()),
            (Lines{"Warning: 42 events were dropped because rings were full; raise "
                   "--host-ringbuffer-size",
                   "Warning: 5 records were lost by the kernel (perf buffers full); lower the "
                   "sampling frequency",
                   "Warning: 3 events were refused: they named a track, string or stack their "
                   "source never declared"}));
}

TEST_F(SummaryTest, UnknownModeFailsWithAReason) {
  fake.set_option("mode", "everything");
  SummaryExporter exporter(fake.host());
  EXPECT_FALSE(exporter.begin());
  ASSERT_EQ(fake.errors().size(), 1u);
  EXPECT_EQ(fake.errors()[0],
            "summary: unknown mode 'everything' (choose summary, gcu, per-gcu or api)");
}

} // namespace
} // namespace prof::summary

namespace prof::summary {
namespace {

// Annotation ranges get the section `prof stats --report nvtx` prints: by
// category, name and domain, with the share of the category's ranges and of
// their threads' time.
TEST_F(SummaryTest, AnnotationRangesGetTheirCategorysSection) {
  const prof_track_id worker =
      fake.add_track(PROF_TRACK_THREAD, "worker", fake.add_track(PROF_TRACK_PROCESS, "app"));
  const uint64_t train = fake.add_args({fake.string_arg("domain", "train")});
  const std::vector<prof_event> events{
      // main: [0, 2000) ns, a 1000 ns range; worker: [400, 900), a 200 ns range.
      FakeExportHost::with_args(fake.slice(thread, "step", 0, 1000, "nvtx/train"), train,
                                PROF_CATEGORY_ANNOTATION),
      fake.slice(thread, "topsLaunchKernel", 1000, 1000, "api"),
      fake.slice(worker, "read", 400, 500, "osrt"),
      FakeExportHost::with_args(fake.slice(worker, "load", 500, 200, "nvtx"), 0,
                                PROF_CATEGORY_ANNOTATION)};
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.consume(events.data(), events.size()));
  ASSERT_TRUE(exporter.end());
  const Lines printed = fake.printed();
  const auto section =
      std::find(printed.begin(), printed.end(), "======== Annotation ranges (nvtx):");
  ASSERT_NE(section, printed.end());
  const Lines expected{
      "======== Annotation ranges (nvtx):",
      "Time(%)      Time  Calls       Avg       Min       Max  Thread(%)  Domain  Name",
      " 83.33%    1.00us      1    1.00us    1.00us    1.00us     50.00%  train   step",
      " 16.67%  200.00ns      1  200.00ns  200.00ns  200.00ns     40.00%  -       load",
  };
  EXPECT_EQ(Lines(section, section + 4), expected);
  EXPECT_EQ(section[4].rfind("Time(%) is of the time of all annotation ranges", 0), 0u)
      << section[4];
  EXPECT_EQ(printed.end() - section, 5) << "no counters or samples follow";
}

TEST_F(SummaryTest, NoAnnotationSectionWithoutAnnotationRanges) {
  for (const std::string &line : run())
    EXPECT_EQ(line.find("Annotation ranges"), std::string::npos) << line;
}

// The heap (prof --memory-profile) gets the section `prof stats --report
// memory` prints, each part cut to its 10 largest rows with a word on the rest.
TEST_F(SummaryTest, TheHeapSectionKeepsTheLargestRowsOfEachPart) {
  const prof_track_id process = fake.add_track(PROF_TRACK_PROCESS, "app", 0, 42);
  std::vector<prof_event> events;
  for (uint64_t i = 1; i <= 14; ++i) {
    prof_event leak = fake.instant(process, "site" + std::to_string(i), 100);
    leak.category = fake.intern("heap/leak");
    events.push_back(FakeExportHost::with_args(
        leak, fake.add_args({fake.uint_arg("bytes", 1000 * i), fake.uint_arg("blocks", 1)})));
  }
  SummaryExporter exporter(fake.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.consume(events.data(), events.size()));
  ASSERT_TRUE(exporter.end());
  const Lines printed = fake.printed();
  const auto section = std::find_if(printed.begin(), printed.end(), [](const std::string &line) {
    return line.find("live at exit (leaks), 105000 bytes in 14 blocks") != std::string::npos;
  });
  ASSERT_NE(section, printed.end());
  EXPECT_EQ(section[2], "leak  14000      -       1  site14");
  EXPECT_EQ(section[11], "leak   5000      -       1  site5");
  EXPECT_EQ(section[12].rfind("4 more rows (the 10 largest of each part are above)", 0), 0u)
      << section[12];
}

} // namespace
} // namespace prof::summary
