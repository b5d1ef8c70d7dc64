// `prof stats --report findings`: each rule on a report that triggers it and
// on one that does not, the thresholds, and the option that changes them.
#include "stats_report_fixture.hpp"

#include "core/plugin_host/console.hpp"
#include "tests/support/file_text.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/stats/stats_command.hpp"
#include <prof/stats/findings.hpp>
#include <prof/stats/launch_log.hpp>
#include <prof/testing/fake_export_host.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace prof::stats {
namespace {

using testing::kOrigin;
using testing::kUs;
using testing::value;

uint64_t us(uint64_t n) { return kOrigin + n * kUs; }
constexpr uint64_t kMs = 1000 * kUs;

/// A process with a thread, and a device with a stream.
struct Base {
  testing::TestReport r;
  uint32_t app = r.process("app", 10);
  uint32_t main = r.thread(app, "app", 10);
  uint32_t gpu = r.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
  uint32_t stream = r.track(PROF_TRACK_ENGINE, gpu, "Stream 1", 1);
};

class Findings : public testing::ReportFixture {
protected:
  /// The findings of `report`.
  StatsTable findings(const testing::TestReport &report, ReportOptions options = {}) {
    open(report, 5);
    return one("findings", options);
  }
  /// The rows of `table` that rule `rule` made, by index.
  static std::vector<size_t> rows_of(const StatsTable &table, const std::string &rule) {
    std::vector<size_t> rows;
    for (size_t row = 0; !table.sections.empty() && row < table.sections[0].rows.size(); ++row)
      if (value(table, 0, row, "Rule") == rule) rows.push_back(row);
    return rows;
  }
  static bool fired(const StatsTable &table, const std::string &rule) {
    return !rows_of(table, rule).empty();
  }
  static bool noted(const StatsTable &table, const std::string &text) {
    return std::any_of(table.notes.begin(), table.notes.end(), [&](const std::string &note) {
      return note.find(text) != std::string::npos;
    });
  }
};

// A copy whose call returned after it had finished is synchronous: the call's
// 200 us are its cost. One whose call returned first is not.
TEST_F(Findings, SyncCopyIsACopyItsCallWaitedFor) {
  Base sync;
  sync.r.call(sync.main, us(0), 200 * kUs, "rtMemcpy", 1);
  sync.r.work(sync.stream, us(50), 100 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  const StatsTable table = findings(sync.r);
  ASSERT_EQ(rows_of(table, "sync-copy").size(), 1u);
  const size_t row = rows_of(table, "sync-copy")[0];
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), "200000");
  EXPECT_EQ(value(table, 0, row, "Severity"), "high") << "200 us of a 200 us report";
  EXPECT_NE(value(table, 0, row, "Evidence").find("Memcpy HtoD by rtMemcpy x1"), std::string::npos);
  EXPECT_FALSE(value(table, 0, row, "Advice").empty());
  EXPECT_FALSE(fired(table, "sync-memset"));

  // A copy in two pieces, one seemingly past the call (a device clock a
  // little off the host's), is still one synchronous call.
  Base pieces;
  pieces.r.call(pieces.main, us(0), 200 * kUs, "rtMemcpy", 1);
  pieces.r.work(pieces.stream, us(50), 100 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  pieces.r.work(pieces.stream, us(150), 60 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  const StatsTable split = findings(pieces.r);
  ASSERT_EQ(rows_of(split, "sync-copy").size(), 1u);
  EXPECT_EQ(value(split, 0, rows_of(split, "sync-copy")[0], "Cost(ns)"), "200000");
  EXPECT_NE(value(split, 0, rows_of(split, "sync-copy")[0], "Evidence").find("x1 "),
            std::string::npos);

  Base async;
  async.r.call(async.main, us(0), 10 * kUs, "rtMemcpyAsync", 1);
  async.r.work(async.stream, us(50), 100 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  EXPECT_FALSE(fired(findings(async.r), "sync-copy"));
}

TEST_F(Findings, SyncMemsetIsASetItsCallWaitedFor) {
  Base sync;
  sync.r.call(sync.main, us(0), 300 * kUs, "rtMemset", 7);
  sync.r.work(sync.stream, us(10), 250 * kUs, "Memset", PROF_CATEGORY_MEMSET, 7);
  const StatsTable table = findings(sync.r);
  ASSERT_TRUE(fired(table, "sync-memset"));
  EXPECT_FALSE(fired(table, "sync-copy"));

  Base async;
  async.r.call(async.main, us(0), 5 * kUs, "rtMemsetAsync", 7);
  async.r.work(async.stream, us(10), 250 * kUs, "Memset", PROF_CATEGORY_MEMSET, 7);
  EXPECT_FALSE(fired(findings(async.r), "sync-memset"));
}

// Copies name their host memory with "src_kind" and "dst_kind"; without
// either the rule says it could not run.
TEST_F(Findings, PageableCopyReadsTheCopysMemoryKinds) {
  Base pageable;
  pageable.r.call(pageable.main, us(0), 10 * kUs, "rtMemcpyAsync", 1);
  pageable.r.work(pageable.stream, us(20), 300 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1,
                  {{"src_kind", "pageable"}, {"dst_kind", "device"}});
  const StatsTable table = findings(pageable.r);
  ASSERT_TRUE(fired(table, "pageable-copy"));
  const size_t row = rows_of(table, "pageable-copy")[0];
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), "300000");
  EXPECT_NE(value(table, 0, row, "Evidence").find("1 was issued asynchronously"),
            std::string::npos);
  EXPECT_FALSE(noted(table, "not checked: pageable-copy"));

  Base pinned;
  pinned.r.call(pinned.main, us(0), 10 * kUs, "rtMemcpyAsync", 1);
  pinned.r.work(pinned.stream, us(20), 300 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1,
                {{"src_kind", "pinned"}, {"dst_kind", "device"}});
  const StatsTable no = findings(pinned.r);
  EXPECT_FALSE(fired(no, "pageable-copy"));
  EXPECT_FALSE(noted(no, "not checked: pageable-copy"));

  Base unnamed;
  unnamed.r.call(unnamed.main, us(0), 10 * kUs, "rtMemcpyAsync", 1);
  unnamed.r.work(unnamed.stream, us(20), 300 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  const StatsTable unknown = findings(unnamed.r);
  EXPECT_FALSE(fired(unknown, "pageable-copy"));
  EXPECT_TRUE(noted(unknown, "not checked: pageable-copy"));
}

// A wait inside the call it names blocked that call; a wait on the host
// counts as it is. A device's wait after its call returned is not the host's.
TEST_F(Findings, SyncApiCountsTheHostsWaits) {
  Base sync;
  sync.r.call(sync.main, us(0), 500 * kUs, "rtStreamSynchronize", 2);
  sync.r.work(sync.stream, us(10), 480 * kUs, "Stream synchronize", PROF_CATEGORY_SYNC, 2);
  sync.r.slice(sync.main, us(600), 200 * kUs, "wait", "sync", PROF_CATEGORY_SYNC);
  const StatsTable table = findings(sync.r);
  ASSERT_TRUE(fired(table, "sync-api"));
  const size_t row = rows_of(table, "sync-api")[0];
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), "700000");
  EXPECT_NE(value(table, 0, row, "Seen").find("2 calls blocked"), std::string::npos);

  Base device;
  device.r.call(device.main, us(0), 5 * kUs, "rtStreamWaitEvent", 3);
  device.r.work(device.stream, us(100), 400 * kUs, "Wait", PROF_CATEGORY_SYNC, 3);
  const StatsTable no = findings(device.r);
  EXPECT_FALSE(fired(no, "sync-api"));
  EXPECT_TRUE(noted(no, "not checked: sync-api"));
}

// Ten kernels of 5 us whose launch calls took 20 us each: the host cannot
// keep up, 150 us lost. Kernels of 50 us are longer than their calls.
TEST_F(Findings, ShortWorkIsKernelsShorterThanTheirLaunchCalls) {
  const auto launches = [](uint64_t kernel_us) {
    Base b;
    for (uint64_t i = 0; i < 10; ++i) {
      b.r.call(b.main, us(i * 100), 20 * kUs, "rtLaunchKernel", i + 1);
      b.r.work(b.stream, us(i * 100 + 20), kernel_us * kUs, "tiny", PROF_CATEGORY_KERNEL, i + 1);
    }
    return b;
  };
  Base short_ones = launches(5);
  const StatsTable table = findings(short_ones.r);
  ASSERT_TRUE(fired(table, "short-work"));
  EXPECT_EQ(value(table, 0, rows_of(table, "short-work")[0], "Cost(ns)"), "150000");
  Base long_ones = launches(50);
  EXPECT_FALSE(fired(findings(long_ones.r), "short-work"));
}

// A kernel that starts 995 us after its call returned, on an idle device, is
// an outlier; one queued behind other work (the device busy) costs nothing.
TEST_F(Findings, LaunchDelayIsTheDevicesIdleTimeWhileWorkWaited) {
  Base idle;
  idle.r.call(idle.main, us(0), 5 * kUs, "rtLaunchKernel", 1);
  idle.r.work(idle.stream, us(1000), 100 * kUs, "late", PROF_CATEGORY_KERNEL, 1);
  const StatsTable table = findings(idle.r);
  ASSERT_TRUE(fired(table, "launch-delay"));
  EXPECT_EQ(value(table, 0, rows_of(table, "launch-delay")[0], "Cost(ns)"), "995000");

  Base busy;
  busy.r.call(busy.main, us(0), 5 * kUs, "rtLaunchKernel", 1);
  busy.r.work(busy.stream, us(0), 1000 * kUs, "before", PROF_CATEGORY_KERNEL, 9);
  busy.r.work(busy.stream, us(1000), 100 * kUs, "queued", PROF_CATEGORY_KERNEL, 1);
  EXPECT_FALSE(fired(findings(busy.r), "launch-delay"));
}

// nsys's gpu_gaps: idle over 500 ms between a device's work.
TEST_F(Findings, DeviceGapsAreIdleTimesOverTheThreshold) {
  const auto gap = [](uint64_t ms) {
    Base b;
    b.r.slice(b.stream, us(0), 100 * kUs, "a", "", PROF_CATEGORY_KERNEL);
    b.r.slice(b.stream, us(100) + ms * kMs, 100 * kUs, "b", "", PROF_CATEGORY_KERNEL);
    return b;
  };
  Base long_gap = gap(700);
  const StatsTable table = findings(long_gap.r);
  ASSERT_TRUE(fired(table, "device-gaps"));
  const size_t row = rows_of(table, "device-gaps")[0];
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), std::to_string(700 * kMs));
  EXPECT_NE(value(table, 0, row, "Seen").find("GPU 0 was idle 1 time"), std::string::npos);
  Base short_gap = gap(400);
  EXPECT_FALSE(fired(findings(short_gap.r), "device-gaps"));
  // A lower threshold finds it.
  ReportOptions options;
  options.finding_thresholds["gap-ms"] = 300;
  EXPECT_TRUE(fired(findings(short_gap.r, options), "device-gaps"));
}

// nsys's gpu_time_util: busy [0, 1) and [9, 10) ms of a 10 ms span leaves
// the chunks between under 50% busy; back-to-back work does not.
TEST_F(Findings, LowUtilizationIsChunksOfTheBusySpanUnderTheThreshold) {
  Base sparse;
  sparse.r.slice(sparse.stream, us(0), kMs, "a", "", PROF_CATEGORY_KERNEL);
  sparse.r.slice(sparse.stream, us(9000), kMs, "b", "", PROF_CATEGORY_KERNEL);
  const StatsTable table = findings(sparse.r);
  ASSERT_TRUE(fired(table, "low-utilization"));
  const size_t row = rows_of(table, "low-utilization")[0];
  EXPECT_NE(value(table, 0, row, "Evidence").find("busy 20% of its span overall"),
            std::string::npos);
  EXPECT_GE(std::stoull(value(table, 0, row, "Cost(ns)")), 7 * kMs);

  Base dense;
  for (uint64_t i = 0; i < 10; ++i)
    dense.r.slice(dense.stream, us(i * 1000), kMs, "k", "", PROF_CATEGORY_KERNEL);
  EXPECT_FALSE(fired(findings(dense.r), "low-utilization"));
}

/// Two ranks' all-reduces, rank 1 `late` us after rank 0 in each of four,
/// or, with `alternate`, the ranks taking turns to be late.
testing::TestReport collectives(uint64_t late, bool alternate) {
  testing::TestReport r;
  const uint32_t rank0 = r.track(PROF_TRACK_PROCESS, 0, "app [rank 0]");
  const uint32_t rank1 = r.track(PROF_TRACK_PROCESS, 0, "app [rank 1]");
  const uint32_t main0 = r.thread(rank0, "app", 10), main1 = r.thread(rank1, "app", 20);
  for (uint64_t op = 1; op <= 4; ++op) {
    const bool rank1_late = !alternate || op % 2 == 0;
    const uint64_t at = op * 10'000;
    r.communication(rank1_late ? main0 : main1, us(at), (late + 100) * kUs, "AllReduce", "world", 8,
                    op);
    r.communication(rank1_late ? main1 : main0, us(at + late), 100 * kUs, "AllReduce", "world", 8,
                    op);
  }
  return r;
}

TEST_F(Findings, StragglerIsOneRankLastAgainAndAgain) {
  const StatsTable table = findings(collectives(2000, false));
  ASSERT_EQ(rows_of(table, "straggler").size(), 1u);
  const size_t row = rows_of(table, "straggler")[0];
  EXPECT_NE(value(table, 0, row, "Seen")
                .find("app [rank 1] came last to AllReduce on world in "
                      "100%"),
            std::string::npos);
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), std::to_string(4 * 2000 * kUs));
  EXPECT_NE(value(table, 0, row, "Evidence").find("last in 4 of 4 operations"), std::string::npos);
  EXPECT_FALSE(fired(findings(collectives(2000, true)), "straggler")) << "each rank last half";
  EXPECT_FALSE(fired(findings(collectives(100, false)), "straggler")) << "late 100 us only";
}

/// Two ranks' steps: rank 0's take 10 ms, rank 1's `slow_us`.
testing::TestReport steps(uint64_t slow_us) {
  testing::TestReport r;
  const uint32_t main0 = r.thread(r.process("train [rank 0]", 10), "train", 10);
  const uint32_t main1 = r.thread(r.process("train [rank 1]", 11), "train", 11);
  for (uint64_t step = 1; step <= 3; ++step) {
    r.step(main0, us(step * 20'000), 10 * kMs, step);
    r.step(main1, us(step * 20'000), slow_us * kUs, step);
  }
  return r;
}

TEST_F(Findings, SlowRankIsOneRanksStepsAboveTheOthers) {
  const StatsTable table = findings(steps(12'000));
  ASSERT_EQ(rows_of(table, "slow-rank").size(), 1u);
  const size_t row = rows_of(table, "slow-rank")[0];
  EXPECT_NE(value(table, 0, row, "Seen").find("train [rank 1]"), std::string::npos);
  EXPECT_NE(value(table, 0, row, "Seen").find("20% more"), std::string::npos);
  EXPECT_EQ(value(table, 0, row, "Cost(ns)"), std::to_string(3 * 2 * kMs));
  EXPECT_NE(value(table, 0, row, "Evidence").find("slowest rank in 3 of 3 steps"),
            std::string::npos);
  EXPECT_FALSE(fired(findings(steps(10'500)), "slow-rank")) << "5% slower";
}

// Communication [200, 700) us while the device computed [0, 100): none of it
// overlapped. Communication during the compute is all overlapped.
TEST_F(Findings, NoOverlapIsCommunicationWhileTheDeviceDidNotCompute) {
  const auto overlap = [](uint64_t from) {
    Base b;
    b.r.slice(b.stream, us(0), 500 * kUs, "gemm", "", PROF_CATEGORY_KERNEL);
    b.r.communication(b.main, us(from), 500 * kUs, "MPI_Allreduce", "world");
    return b;
  };
  Base apart = overlap(600);
  const StatsTable table = findings(apart.r);
  ASSERT_TRUE(fired(table, "no-overlap"));
  EXPECT_EQ(value(table, 0, rows_of(table, "no-overlap")[0], "Cost(ns)"), "500000");
  Base together = overlap(0);
  EXPECT_FALSE(fired(findings(together.r), "no-overlap"));
}

// A device's "Memory used" peak against its "Memory total" (event.h).
TEST_F(Findings, MemoryPeakIsUseCloseToTheDevicesSize) {
  const auto memory = [](double peak, bool sized) {
    Base b;
    const uint32_t used = b.r.track(PROF_TRACK_COUNTER, b.gpu, PROF_MEMORY_USED_TRACK, -1, "bytes");
    b.r.counter(used, us(0), 10);
    b.r.counter(used, us(10), peak);
    if (sized) {
      const uint32_t total =
          b.r.track(PROF_TRACK_COUNTER, b.gpu, PROF_MEMORY_TOTAL_TRACK, -1, "bytes");
      b.r.counter(total, us(0), 100);
    }
    return b;
  };
  Base full = memory(95, true);
  const StatsTable table = findings(full.r);
  ASSERT_TRUE(fired(table, "memory-peak"));
  EXPECT_NE(value(table, 0, rows_of(table, "memory-peak")[0], "Seen").find("95%"),
            std::string::npos);
  Base roomy = memory(50, true);
  const StatsTable no = findings(roomy.r);
  EXPECT_FALSE(fired(no, "memory-peak"));
  EXPECT_FALSE(noted(no, "not checked: memory-peak"));
  Base unsized = memory(95, false);
  const StatsTable unknown = findings(unsized.r);
  EXPECT_FALSE(fired(unknown, "memory-peak"));
  EXPECT_TRUE(noted(unknown, "not checked: memory-peak"));
}

// Lost events qualify every other finding: a row of their own, last.
TEST_F(Findings, DropsMakeTheOtherFindingsUncertain) {
  Base lossy;
  lossy.r.call(lossy.main, us(0), 200 * kUs, "rtMemcpy", 1);
  lossy.r.work(lossy.stream, us(50), 100 * kUs, "Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD, 1);
  lossy.r.dropped(PROF_DROP_RING_FULL, 12);
  const StatsTable table = findings(lossy.r);
  ASSERT_TRUE(fired(table, "drops"));
  const size_t row = rows_of(table, "drops")[0];
  EXPECT_EQ(row, table.sections[0].rows.size() - 1) << "last";
  EXPECT_EQ(value(table, 0, row, "Severity"), "high");
  EXPECT_NE(value(table, 0, row, "Evidence").find("12 events were dropped"), std::string::npos);
  Base whole;
  whole.r.call(whole.main, us(0), 200 * kUs, "rtMemcpy", 1);
  EXPECT_FALSE(fired(findings(whole.r), "drops"));
}

TEST_F(Findings, NothingToFindSaysSo) {
  Base quiet;
  quiet.r.slice(quiet.stream, us(0), kMs, "k", "", PROF_CATEGORY_KERNEL);
  const StatsTable table = findings(quiet.r);
  EXPECT_EQ(table.row_count(), 0u);
  EXPECT_EQ(testing::split(render_table({table})).at(0), "======== Findings: none");
}

TEST_F(Findings, ThresholdsHaveOneTableOfDefaults) {
  const auto &thresholds = finding_thresholds();
  ASSERT_FALSE(thresholds.empty());
  for (const FindingThreshold &threshold : thresholds) {
    EXPECT_EQ(find_finding_threshold(threshold.name), &threshold);
    EXPECT_EQ(FindingLimits()[threshold.name], threshold.default_value);
  }
  EXPECT_EQ(FindingLimits({{"gap-ms", 2}}).ms("gap-ms"), 2'000'000u);
  EXPECT_EQ(find_finding_threshold("no-such"), nullptr);
}

// docs/findings.md's table of thresholds is the code's, name and default.
TEST_F(Findings, TheDocsListEveryThresholdWithItsDefault) {
  const std::string docs = prof::testing::file_text(PROF_SOURCE_DIR "/docs/findings.md");
  for (const FindingThreshold &threshold : finding_thresholds()) {
    std::ostringstream row;
    row << "| `" << threshold.name << "` | " << threshold.default_value << " | ";
    EXPECT_NE(docs.find(row.str()), std::string::npos) << row.str();
  }
}

TEST_F(Findings, BadThresholdOptionIsOneLineNamingIt) {
  Base b;
  b.r.slice(b.stream, us(0), kMs, "k", "", PROF_CATEGORY_KERNEL);
  const std::string path = dir_.file("t.profrep");
  b.r.write(path);
  const auto error = [&](const std::string &option) -> std::string {
    core::Console console;
    try {
      tool::run_stats({path, "--report", "findings", "--finding-threshold", option}, console);
    } catch (const cli::UsageError &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error("gap=5").find("--finding-threshold 'gap=5' is not NAME=VALUE with a NAME of "
                                "min-cost-us, gap-ms"),
            std::string::npos);
  EXPECT_NE(error("gap-ms=soon").find("'soon' is not a number"), std::string::npos);
  EXPECT_NE(error("gap-ms=-1").find("is not a number, 0 or more"), std::string::npos);
  EXPECT_EQ(error("gap-ms=5"), "");
}

// A long capture's launch log stays bounded: past LaunchLog::kMaxKept calls
// the rest are counted, not kept, and the findings say so.
TEST(LaunchLogBound, CallsPastTheBoundAreCountedNotKept) {
  prof::testing::FakeExportHost fake;
  const ExportHost host = fake.host();
  LaunchLog log(host);
  prof_event call{};
  call.type = PROF_EVENT_SLICE;
  call.kind = PROF_CATEGORY_RUNTIME_API;
  call.duration = 10;
  for (uint64_t i = 1; i <= LaunchLog::kMaxKept + 5; ++i) {
    call.id = i;
    call.ts = i * 100;
    log.add(call, false, 0);
  }
  EXPECT_EQ(log.calls().size(), LaunchLog::kMaxKept);
  EXPECT_EQ(log.left_out(), 5u);
  LaunchLog other(host);
  other.merge(log);
  EXPECT_EQ(other.left_out(), 5u);
}

} // namespace
} // namespace prof::stats
