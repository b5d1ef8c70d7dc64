// Every `prof stats` report on a report with known contents, and the
// parallel scan against a sequential fold.
#include "stats_report_fixture.hpp"
#include "stats_test_report.hpp"
#include "tests/support/json_check.hpp"

#include <prof/stats/activity_rows.hpp>
#include <prof/stats/aggregator_wire.hpp>
#include <prof/stats/stats_reports.hpp>
#include <prof/stats/summary_tables.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <sstream>

namespace prof::stats {
namespace {

using prof::testing::Json;
using prof::testing::JsonParser;
using testing::kOrigin;
using testing::kUs;
using testing::split;
using testing::value;
using Lines = std::vector<std::string>;

class StatsReports : public testing::ReportFixture {
protected:
  void SetUp() override { open(testing::known_report(), 3); }
  /// Every report's name, and options that give the window and gap
  /// reports rows on the random report.
  static std::vector<std::string> every_report() {
    std::vector<std::string> all;
    for (const auto &info : known_reports())
      all.emplace_back(info.name);
    return all;
  }
  static ReportOptions fine_options() {
    ReportOptions options;
    options.interval_ns = 50'000'000;
    options.gap_threshold_ns = 100;
    options.group_by = OperatorGrouping::Shapes;
    return options;
  }
  /// Every report of `aggregator` as the console prints them.
  std::string render_every_report(StatsAggregator &aggregator, const ReportOptions &options) {
    std::vector<StatsTable> tables;
    for (const auto &name : every_report())
      tables.push_back(build_report(name, aggregator, host_->host(), options));
    return render_table(tables);
  }
};

TEST_F(StatsReports, GcuActivityIsTheSummarysDeviceTable) {
  const StatsTable table = one("gcu-activity");
  const Lines expected{
      "======== GCU activities:",
      "          Type  Time(%)      Time  Calls       Avg       Min       Max  Name",
      "GCU activites:   87.59%    6.00ms      3    2.00ms    1.00ms    3.00ms  conv",
      "                  7.30%  500.00us      1  500.00us  500.00us  500.00us  Memcpy DtoH",
      "                  2.92%  200.00us      1  200.00us  200.00us  200.00us  relu",
      "                  1.46%  100.00us      1  100.00us  100.00us  100.00us  Memcpy HtoD",
      "                  0.73%   50.00us      1   50.00us   50.00us   50.00us  Memset",
  };
  EXPECT_EQ(split(render_table({table})), expected);

  // The same text as the summary exporter's table for the device group.
  const StatsAggregator aggregator =
      tool::scan_report(reader_, host_->host(), scope_for({"gcu-activity"}, {})).aggregator;
  const auto groups =
      stats::activities_by_group(aggregator.summary(), host_->host(), [](stats::ActivityGroup g) {
        return g == stats::ActivityGroup::Device;
      });
  Lines summary = stats::format_activity_table(
      {stats::to_rows(stats::ActivityGroup::Device, groups.begin()->second)});
  summary.insert(summary.begin(), "======== GCU activities:");
  EXPECT_EQ(split(render_table({table})), summary);

  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), "6000000");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "3");
  EXPECT_EQ(value(table, 0, 0, "Avg(ns)"), "2000000");
  EXPECT_EQ(value(table, 0, 0, "Min(ns)"), "1000000");
  EXPECT_EQ(value(table, 0, 0, "Max(ns)"), "3000000");
  EXPECT_EQ(value(table, 0, 0, "Time(%)"), "87.59");
}

// Two ranks' MPI calls, as a merged report has them: per communicator, by
// name and rank, with bytes and bandwidth; calls without bytes show none.
TEST_F(StatsReports, CollectivesPerCommunicatorNameAndRank) {
  testing::TestReport report;
  const uint32_t rank0 = report.track(PROF_TRACK_PROCESS, 0, "app [rank 0]");
  const uint32_t rank1 = report.track(PROF_TRACK_PROCESS, 0, "app [rank 1]");
  const uint32_t main0 = report.thread(rank0, "app", 10), main1 = report.thread(rank1, "app", 20);
  report.communication(main0, 0, 1000, "MPI_Allreduce", "MPI_COMM_WORLD", 4000);
  report.communication(main0, 5000, 3000, "MPI_Allreduce", "MPI_COMM_WORLD", 4000);
  report.communication(main1, 0, 500, "MPI_Allreduce", "MPI_COMM_WORLD", 4000);
  report.communication(main1, 9000, 700, "MPI_Barrier", "MPI_COMM_WORLD");
  report.communication(main1, 9800, 100, "MPI_Allreduce", "communicator 3", 8);
  report.slice(main1, 20000, 50, "read", "osrt"); // not communication
  open(report, 2);
  const StatsTable table = one("collectives");
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(table.sections[0].label, "MPI_COMM_WORLD");
  EXPECT_EQ(table.sections[0].title, "======== Communication (MPI_COMM_WORLD):");
  EXPECT_EQ(table.sections[1].label, "communicator 3");
  ASSERT_EQ(table.sections[0].rows.size(), 3u);
  EXPECT_EQ(value(table, 0, 0, "Name"), "MPI_Allreduce");
  EXPECT_EQ(value(table, 0, 0, "Process"), "app [rank 0]");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "2");
  EXPECT_EQ(value(table, 0, 0, "Bytes"), "8000");
  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), "4000");
  EXPECT_EQ(value(table, 0, 0, "Max(ns)"), "3000");
  EXPECT_EQ(value(table, 0, 0, "AlgBW(GB/s)"), "2"); // 8000 bytes in 4000 ns
  EXPECT_EQ(value(table, 0, 1, "Process"), "app [rank 1]");
  EXPECT_EQ(value(table, 0, 1, "AlgBW(GB/s)"), "8");
  EXPECT_EQ(value(table, 0, 2, "Name"), "MPI_Barrier");
  EXPECT_EQ(value(table, 0, 2, "Bytes"), "");
  ASSERT_EQ(table.sections[1].rows.size(), 1u);
  EXPECT_EQ(value(table, 1, 0, "Bytes"), "8");
  const Lines text = split(render_table({table}));
  EXPECT_EQ(text.at(0), "======== Communication (MPI_COMM_WORLD):");

  // A report without any: no section (the table says so).
  open(testing::known_report(), 3);
  EXPECT_TRUE(one("collectives").sections.empty());
}

// Three allreduces on two ranks, matched by sequence: rank 1 comes last
// twice (late by 300 and 500 ns), rank 0 once (by 100 ns). A call seen on
// one rank only, and one without a sequence, are no operation.
TEST_F(StatsReports, StragglersMatchCollectivesAcrossRanksBySequence) {
  testing::TestReport report;
  const uint32_t rank0 = report.track(PROF_TRACK_PROCESS, 0, "app [rank 0]");
  const uint32_t rank1 = report.track(PROF_TRACK_PROCESS, 0, "app [rank 1]");
  const uint32_t main0 = report.thread(rank0, "app", 10), main1 = report.thread(rank1, "app", 20);
  const std::string world = "MPI_COMM_WORLD";
  report.communication(main0, 1000, 900, "MPI_Allreduce", world, 8, 1);
  report.communication(main1, 1300, 600, "MPI_Allreduce", world, 8, 1);
  report.communication(main0, 5100, 100, "MPI_Allreduce", world, 8, 2);
  report.communication(main1, 5000, 200, "MPI_Allreduce", world, 8, 2);
  report.communication(main0, 9000, 600, "MPI_Allreduce", world, 8, 3);
  report.communication(main1, 9500, 100, "MPI_Allreduce", world, 8, 3);
  report.communication(main0, 12000, 10, "MPI_Barrier", world, -1, 4); // rank 0 only
  report.communication(main1, 12000, 10, "MPI_Send", world, 8);        // no sequence
  open(report, 3);
  const StatsTable table = one("stragglers");
  ASSERT_EQ(table.sections.size(), 1u);
  EXPECT_EQ(table.sections[0].label, world);
  ASSERT_EQ(table.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(table, 0, 0, "Process"), "app [rank 0]");
  EXPECT_EQ(value(table, 0, 0, "Operations"), "3");
  EXPECT_EQ(value(table, 0, 0, "Last"), "1");
  EXPECT_EQ(value(table, 0, 0, "LateAvg(ns)"), "100");
  EXPECT_EQ(value(table, 0, 1, "Process"), "app [rank 1]");
  EXPECT_EQ(value(table, 0, 1, "Last"), "2");
  EXPECT_EQ(value(table, 0, 1, "LateAvg(ns)"), "400");
  EXPECT_EQ(value(table, 0, 1, "LateMax(ns)"), "500");
  EXPECT_EQ(value(table, 0, 1, "SkewAvg(ns)"), "300");
  EXPECT_EQ(value(table, 0, 1, "SkewMax(ns)"), "500");
  open(testing::known_report(), 3);
  EXPECT_TRUE(one("stragglers").sections.empty());
}

// Four ranks' dumps: three wait in all-reduce #50, rank 1 never entered it
// and is inside a Python function; a communicator all ranks finished with
// holds nobody up.
TEST_F(StatsReports, HangNamesTheRankOthersWaitForAndWhatItIsInside) {
  testing::TestReport report;
  const std::string world = "MPI_COMM_WORLD";
  const uint64_t dump = kOrigin + 60'000 * kUs;
  std::vector<uint32_t> mains;
  for (int rank = 0; rank < 4; ++rank) {
    const uint32_t process = report.process("app [rank " + std::to_string(rank) + "]", 100 + rank);
    mains.push_back(report.thread(process, "main", 100 + rank));
    for (uint64_t sequence = 1; sequence < 50; ++sequence)
      report.communication(mains.back(), kOrigin + sequence * 100 * kUs, 50 * kUs, "MPI_Allreduce",
                           world, 8, sequence);
    report.communication(mains.back(), kOrigin + 6000 * kUs, 10 * kUs, "MPI_Barrier", "sub", -1, 1);
  }
  for (const int rank : {0, 2, 3}) {
    const uint64_t begin = kOrigin + (5000 + static_cast<uint64_t>(rank)) * kUs;
    report.communication(mains[static_cast<size_t>(rank)], begin, dump - begin, "MPI_Allreduce",
                         world, 8, 50);
    report.unfinished();
  }
  report.annotation(mains[1], kOrigin + 10 * kUs, dump - kOrigin - 10 * kUs, "train", "", "python");
  report.unfinished();
  report.annotation(mains[1], kOrigin + 5000 * kUs, dump - kOrigin - 5000 * kUs, "stall", "",
                    "python");
  report.unfinished();
  // A runtime's thread of rank 1 that only waits: listed, not named in the notes.
  const uint32_t progress = report.thread(report.process("app [rank 1]", 101), "progress", 1101);
  report.slice(progress, kOrigin, dump - kOrigin, "poll", "osrt");
  report.unfinished();
  report.sample(mains[1], dump - 2000 * kUs, report.stack({"time.sleep", "stall", "train"}));
  report.sample(mains[1], dump - 900 * kUs, report.stack({"nanosleep", "time.sleep", "stall"}));
  report.sample(mains[0], dump - 100 * kUs, report.stack({"MPI_Allreduce"}));
  open(report, 7);
  const StatsTable table = one("hang");
  ASSERT_EQ(table.sections.size(), 3u);
  EXPECT_EQ(table.sections[0].label, world); // "sub": nobody inside
  ASSERT_EQ(table.sections[0].rows.size(), 4u);
  EXPECT_EQ(value(table, 0, 0, "Process"), "app [rank 0] (100)");
  EXPECT_EQ(value(table, 0, 0, "Entered"), "50");
  EXPECT_EQ(value(table, 0, 0, "Completed"), "49");
  EXPECT_EQ(value(table, 0, 0, "Inside"), "MPI_Allreduce #50");
  EXPECT_EQ(value(table, 0, 0, "For(ns)"), std::to_string(55'000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "State"), "waits");
  EXPECT_EQ(value(table, 0, 1, "Entered"), "49");
  EXPECT_EQ(value(table, 0, 1, "Inside"), "");
  EXPECT_EQ(value(table, 0, 1, "State"), "behind");
  EXPECT_EQ(value(table, 0, 3, "State"), "waits");
  // What was open: the three calls and rank 1's functions, outermost first.
  const Section &open = table.sections[1];
  ASSERT_EQ(open.rows.size(), 6u);
  EXPECT_EQ(open.rows[1][0].text, "app [rank 1] (101)");
  EXPECT_EQ(open.rows[1][3].text, "train");
  EXPECT_EQ(open.rows[2][3].text, "stall");
  EXPECT_EQ(open.rows[2][2].text, "python");
  EXPECT_EQ(open.rows[3][1].text, "progress (1101)");
  EXPECT_EQ(open.rows[3][3].text, "poll");
  EXPECT_EQ(open.rows[4][5].text, "communicator=MPI_COMM_WORLD, bytes=8, sequence=50");
  // The latest sample of the blamed rank's thread only.
  const Section &stacks = table.sections[2];
  ASSERT_EQ(stacks.rows.size(), 1u);
  EXPECT_EQ(stacks.rows[0][1].text, "main (101)");
  EXPECT_EQ(stacks.rows[0][2].integer, 900 * kUs);
  EXPECT_EQ(stacks.rows[0][3].text, "nanosleep <- time.sleep <- stall");
  const Lines expected_notes{
      "MPI_COMM_WORLD: 3 of 4 ranks wait in MPI_Allreduce #50 (for up to 55.00ms) for app [rank "
      "1] (101) (last entered #49)",
      "app [rank 1] (101) is inside stall (python) within train (python) on thread main (101), "
      "for 55.00ms"};
  EXPECT_EQ(table.notes, expected_notes);
  const Json json = JsonParser::parse(render_json({table}));
  EXPECT_EQ(json["hang"]["rows"].items.size(), 11u);
}

TEST_F(StatsReports, HangSaysWhenEveryRankIsInsideOrWhenNothingWasOpen) {
  EXPECT_TRUE(one("hang").sections.empty());
  testing::TestReport report;
  for (int rank = 0; rank < 2; ++rank) {
    const uint32_t main =
        report.thread(report.process("r" + std::to_string(rank), rank + 1), "main", rank + 1);
    report.communication(main, kOrigin, 10 * kUs, rank == 0 ? "MPI_Bcast" : "MPI_Allreduce",
                         "world", 8, 7);
    report.unfinished();
  }
  open(report, 3);
  const StatsTable table = one("hang");
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(value(table, 0, 0, "State"), "inside with all");
  const Lines expected_notes{
      "world: every rank is inside MPI_Allreduce #7 (for up to 10.00us): the operation itself "
      "does not finish",
      "world: the ranks inside #7 called different operations: MPI_Allreduce (r1 (2)), MPI_Bcast "
      "(r0 (1))"};
  EXPECT_EQ(table.notes, expected_notes);
}

// NCCL records a collective as it enqueues it, and the dump shows the one
// its kernel is still inside: that one is entered, not completed.
TEST_F(StatsReports, HangCountsACallOpenAtTheDumpAsNotCompleted) {
  testing::TestReport report;
  const uint32_t rank = report.thread(report.process("r0", 1), "main", 1);
  for (uint64_t sequence = 1; sequence <= 5; ++sequence)
    report.communication(rank, kOrigin + sequence * 10 * kUs, kUs, "AllReduce", "nccl", 8,
                         sequence);
  report.communication(rank, kOrigin + 50 * kUs, 100 * kUs, "AllReduce", "nccl", 8, 5);
  report.unfinished();
  open(report, 8);
  const StatsTable table = one("hang");
  ASSERT_FALSE(table.sections.empty());
  EXPECT_EQ(value(table, 0, 0, "Entered"), "5");
  EXPECT_EQ(value(table, 0, 0, "Completed"), "4");
  EXPECT_EQ(value(table, 0, 0, "Inside"), "AllReduce #5");
}

// One rank: kernels at [0,100) [105,200) [300,400) [1000,1100) us, its
// communication calls at [150,350) and [500,700) us.
TEST_F(StatsReports, OverlapAndIdleOfOneRank) {
  testing::TestReport report;
  const uint32_t app = report.process("app", 10);
  const uint32_t main = report.thread(app, "app", 10);
  const uint32_t gpu = report.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
  const auto us = [](uint64_t n) { return testing::kOrigin + n * testing::kUs; };
  for (const auto &[begin, end] : {std::pair{0, 100}, {105, 200}, {300, 400}, {1000, 1100}})
    report.slice(gpu, us(begin), (end - begin) * testing::kUs, "gemm", "", PROF_CATEGORY_KERNEL);
  report.communication(main, us(150), 200 * testing::kUs, "MPI_Allreduce", "world");
  report.communication(main, us(500), 200 * testing::kUs, "MPI_Allreduce", "world");
  open(report, 3);
  const StatsTable overlap = one("overlap");
  ASSERT_EQ(overlap.sections.size(), 1u);
  ASSERT_EQ(overlap.sections[0].rows.size(), 1u);
  EXPECT_EQ(value(overlap, 0, 0, "Process"), "app (10)");
  EXPECT_EQ(value(overlap, 0, 0, "Communication(ns)"), "400000");
  EXPECT_EQ(value(overlap, 0, 0, "Overlapped(ns)"), "100000"); // [150,200) and [300,350)
  EXPECT_EQ(value(overlap, 0, 0, "Overlap(%)"), "25");
  EXPECT_EQ(value(overlap, 0, 0, "Devices"), "1");

  const StatsTable idle = one("idle");
  ASSERT_EQ(idle.sections.size(), 1u);
  ASSERT_EQ(idle.sections[0].rows.size(), 1u);
  EXPECT_EQ(value(idle, 0, 0, "Device"), "GPU 0");
  EXPECT_EQ(value(idle, 0, 0, "Span(ns)"), "1100000");
  EXPECT_EQ(value(idle, 0, 0, "Idle(ns)"), "705000");
  EXPECT_EQ(value(idle, 0, 0, "Communication(ns)"), "300000"); // [200,300) and [500,700)
  EXPECT_EQ(value(idle, 0, 0, "LaunchGaps(ns)"), "5000");      // [100,105)
  EXPECT_EQ(value(idle, 0, 0, "Host(ns)"), "400000");          // the rest of [400,1000)

  open(testing::known_report(), 3);
  EXPECT_TRUE(one("overlap").sections.empty());
}

// Collective kernels on the device (communication slices on its tracks):
// the device-side figure, HTA's comm/comp overlap, is the share of their
// union during which the device's kernels ran. They are not calls of the
// host. Kernels at [0,100) [105,200) [300,400) us, collective kernels at
// [180,320), [250,260) (inside it) and [600,650), a call at [150,350).
TEST_F(StatsReports, OverlapOnTheDevicesIsTheCollectiveKernelsShare) {
  testing::TestReport report;
  const uint32_t app = report.process("app", 10);
  const uint32_t main = report.thread(app, "app", 10);
  const uint32_t gpu = report.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
  const uint32_t comm_stream = report.track(PROF_TRACK_ENGINE, gpu, "Stream 2", 2);
  const auto us = [](uint64_t n) { return testing::kOrigin + n * testing::kUs; };
  for (const auto &[begin, end] : {std::pair{0, 100}, {105, 200}, {300, 400}})
    report.slice(gpu, us(begin), (end - begin) * testing::kUs, "gemm", "", PROF_CATEGORY_KERNEL);
  for (const auto &[begin, end] : {std::pair{180, 320}, {250, 260}, {600, 650}})
    report.slice(comm_stream, us(begin), (end - begin) * testing::kUs, "all_reduce", "",
                 PROF_CATEGORY_COMMUNICATION);
  report.communication(main, us(150), 200 * testing::kUs, "MPI_Allreduce", "world");
  open(report, 3);
  const StatsTable overlap = one("overlap");
  ASSERT_EQ(overlap.sections.size(), 1u);
  ASSERT_EQ(overlap.sections[0].rows.size(), 1u);
  EXPECT_EQ(value(overlap, 0, 0, "Communication(ns)"), "200000") << "the call only";
  EXPECT_EQ(value(overlap, 0, 0, "Overlapped(ns)"), "100000"); // [150,200) and [300,350)
  EXPECT_EQ(value(overlap, 0, 0, "Overlap(%)"), "50");
  EXPECT_EQ(value(overlap, 0, 0, "DeviceCommunication(ns)"), "190000");
  EXPECT_EQ(value(overlap, 0, 0, "DeviceOverlapped(ns)"), "40000"); // [180,200) and [300,320)
  EXPECT_EQ(value(overlap, 0, 0, "DeviceOverlap(%)"), "21.05");
  EXPECT_EQ(value(overlap, 0, 0, "Devices"), "1");
  ASSERT_EQ(overlap.notes.size(), 3u);
  EXPECT_TRUE(overlap.notes[1].starts_with("Device communication: time the process's devices "
                                           "ran communication work"))
      << overlap.notes[1];

  // The device waited for the collective kernels: not idle, so no idle time
  // in communication calls either.
  const StatsTable idle = one("idle");
  ASSERT_EQ(idle.sections.size(), 1u);
  EXPECT_EQ(value(idle, 0, 0, "Span(ns)"), "650000");
  EXPECT_EQ(value(idle, 0, 0, "Idle(ns)"), "205000"); // [100,105) and [400,600)
}

// A merged report: each device goes with the process of its input (the
// same merge label), not with the other rank's.
TEST_F(StatsReports, OverlapPairsEachMergedRanksDevicesWithItsProcess) {
  testing::TestReport report;
  const auto us = [](uint64_t n) { return testing::kOrigin + n * testing::kUs; };
  for (int rank = 0; rank < 2; ++rank) {
    const std::string label = " [node rank " + std::to_string(rank) + "]";
    const uint32_t app = report.process("app" + label, 10 + rank);
    const uint32_t main = report.thread(app, "app", 10 + rank);
    const uint32_t gpu = report.track(PROF_TRACK_DEVICE, 0, "GPU 0" + label, 0);
    report.communication(main, us(100), 100 * testing::kUs, "MPI_Allreduce", "world");
    // Rank 1's device computes through its call; rank 0's only after it.
    report.slice(gpu, us(rank == 1 ? 100 : 300), 100 * testing::kUs, "gemm", "",
                 PROF_CATEGORY_KERNEL);
  }
  open(report, 2);
  const StatsTable overlap = one("overlap");
  ASSERT_EQ(overlap.sections.size(), 1u);
  ASSERT_EQ(overlap.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(overlap, 0, 0, "Process"), "app [node rank 0] (10)");
  EXPECT_EQ(value(overlap, 0, 0, "Overlapped(ns)"), "0");
  EXPECT_EQ(value(overlap, 0, 1, "Process"), "app [node rank 1] (11)");
  EXPECT_EQ(value(overlap, 0, 1, "Overlapped(ns)"), "100000");
  EXPECT_EQ(value(overlap, 0, 1, "Devices"), "1");
}

TEST_F(StatsReports, PerDeviceSplitsTheDevices) {
  const StatsTable table = one("gcu-activity-per-device");
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(table.sections[0].label, "GCU 0");
  EXPECT_EQ(table.sections[0].title, "======== GCU activities (GCU 0):");
  ASSERT_EQ(table.sections[0].rows.size(), 4u);
  EXPECT_EQ(value(table, 0, 0, "Name"), "conv");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "2");
  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), std::to_string(3000 * kUs));
  EXPECT_EQ(table.sections[1].label, "GCU 1");
  ASSERT_EQ(table.sections[1].rows.size(), 2u);
  EXPECT_EQ(value(table, 1, 0, "Time(ns)"), std::to_string(3000 * kUs));
  EXPECT_EQ(value(table, 1, 1, "Name"), "Memcpy DtoH");
}

TEST_F(StatsReports, HostGroupsByCategory) {
  const auto tables = run({"api", "osrt", "ranges"});
  ASSERT_EQ(tables[0].row_count(), 1u);
  EXPECT_EQ(value(tables[0], 0, 0, "Name"), "gcuLaunchKernel");
  EXPECT_EQ(value(tables[0], 0, 0, "Calls"), "2");
  EXPECT_EQ(value(tables[0], 0, 0, "Time(ns)"), "12000");
  EXPECT_EQ(value(tables[0], 0, 0, "Min(ns)"), "5000");
  EXPECT_EQ(value(tables[0], 0, 0, "Max(ns)"), "7000");
  EXPECT_EQ(split(render_table({tables[0]}))[2],
            "API calls:  100.00%  12.00us      2  6.00us  5.00us  7.00us  gcuLaunchKernel");
  ASSERT_EQ(tables[1].row_count(), 1u);
  EXPECT_EQ(value(tables[1], 0, 0, "Name"), "read");
  // Ranges: the nvtx slice; thread states are none of the three.
  ASSERT_EQ(tables[2].row_count(), 1u);
  EXPECT_EQ(value(tables[2], 0, 0, "Name"), "step");
  EXPECT_EQ(value(tables[2], 0, 0, "Time(ns)"), std::to_string(10000 * kUs));
}

TEST_F(StatsReports, MemoryCopiesByNameAndDirection) {
  const auto tables = run({"memcpy-time", "memcpy-size"});
  const StatsTable &time = tables[0];
  ASSERT_EQ(time.row_count(), 3u); // by their well-known categories, rows by name
  EXPECT_EQ(value(time, 0, 0, "Name"), "Memcpy DtoH");
  EXPECT_EQ(value(time, 0, 1, "Name"), "Memcpy HtoD");
  EXPECT_EQ(value(time, 0, 2, "Name"), "Memset");
  EXPECT_EQ(value(time, 0, 0, "Time(%)"), "76.92"); // 500 of 650 us

  // Sizes come from the copies' `bytes` arguments, summed over devices.
  const StatsTable &size = tables[1];
  const Lines expected{
      "======== Memory copies by direction, bytes:",
      "Direction  Count    Total      Avg      Min      Max",
      "DtoH           1     4096     4096     4096     4096",
      "HtoD           1  1048576  1048576  1048576  1048576",
      "Memset         1      256      256      256      256",
  };
  EXPECT_EQ(split(render_table({size})), expected);
  EXPECT_TRUE(size.notes.empty());
}

TEST_F(StatsReports, KernelsCopiesAndCallsOfEveryVendorByCategory) {
  // A GCU and a CUDA GPU in one report, each with its own names for the
  // same kinds of work: the tables read only categories and arguments.
  testing::TestReport two;
  const uint32_t gcu = two.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  const uint32_t sip = two.track(PROF_TRACK_ENGINE, gcu, "SIP 0", 0);
  const uint32_t gpu = two.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
  const uint32_t stream = two.track(PROF_TRACK_ENGINE, gpu, "Stream 7", 7);
  const uint32_t process = two.track(PROF_TRACK_PROCESS, 0, "train");
  const uint32_t thread = two.track(PROF_TRACK_THREAD, process, "train");
  two.slice(sip, kOrigin, 300 * kUs, "conv", "Operator", PROF_CATEGORY_KERNEL);
  two.slice(stream, kOrigin, 100 * kUs, "vecAdd(float*)", "CUDA kernel", PROF_CATEGORY_KERNEL);
  two.slice(stream, kOrigin + 200 * kUs, 100 * kUs, "vecAdd(float*)", "CUDA kernel",
            PROF_CATEGORY_KERNEL);
  two.copy(stream, kOrigin + 400 * kUs, 10 * kUs, "Memcpy HtoD", "CUDA memcpy",
           PROF_CATEGORY_MEMCPY_HTOD, 4096);
  two.copy(sip, kOrigin + 400 * kUs, 10 * kUs, "Memcpy HtoD", "DMA VC Execution",
           PROF_CATEGORY_MEMCPY_HTOD, 1024);
  two.slice(thread, kOrigin, 5 * kUs, "cudaLaunchKernel", "CUDA runtime API",
            PROF_CATEGORY_RUNTIME_API);
  two.slice(thread, kOrigin + 10 * kUs, 3 * kUs, "cuMemAlloc", "CUDA driver API",
            PROF_CATEGORY_DRIVER_API);
  two.slice(thread, kOrigin + 20 * kUs, 2 * kUs, "gcuLaunchKernel", "api",
            PROF_CATEGORY_RUNTIME_API);
  open(two, 4);
  const auto tables = run({"kernels", "memcpy-size", "api"});
  const Lines kernels{
      "======== Kernels, time by name:",
      "Time(%)      Time  Calls       Avg       Min       Max  Name",
      " 60.00%  300.00us      1  300.00us  300.00us  300.00us  conv",
      " 40.00%  200.00us      2  100.00us  100.00us  100.00us  vecAdd(float*)",
  };
  EXPECT_EQ(split(render_table({tables[0]})), kernels);
  EXPECT_EQ(value(tables[1], 0, 0, "Total(B)"), "5120");
  ASSERT_EQ(tables[2].row_count(), 3u);
  EXPECT_EQ(value(tables[2], 0, 0, "Name"), "cudaLaunchKernel");
  EXPECT_EQ(value(tables[2], 0, 1, "Name"), "cuMemAlloc");
  EXPECT_EQ(value(tables[2], 0, 2, "Name"), "gcuLaunchKernel");
}

TEST_F(StatsReports, CopiesWithoutCategoriesAreNotedNotGuessed) {
  // A report written before plugin ABI 1.5: device work has no category, so
  // a copy is not known as one, and the reports say why they list none.
  testing::TestReport old;
  const uint32_t gcu = old.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  const uint32_t dma = old.track(PROF_TRACK_ENGINE, gcu, "CDMA 0", 0);
  old.slice(dma, kOrigin, 100 * kUs, "Memcpy HtoD", "DMA VC Execution");
  old.slice(dma, kOrigin + 200 * kUs, 100 * kUs, "conv", "Operator");
  open(old, 10);
  const auto tables = run({"memcpy-time", "memcpy-size"});
  const Lines expected{
      "======== Memory copies: none in this report",
      "2 device activities carry no category (a report written before plugin ABI 1.5, or a "
      "source that tags none): kernels and copies among them are not counted",
  };
  EXPECT_EQ(split(render_table({tables[0]})), expected);
  EXPECT_EQ(tables[1].notes, tables[0].notes);
}

TEST_F(StatsReports, CountersAsInTheSummary) {
  const StatsTable table = one("counters");
  const Lines expected{
      "======== Counters:",
      "    Min      Avg      Max  Unit   Name",
      "1.00MiB  2.00MiB  3.00MiB  bytes  RSS",
      " 10.00%   30.00%   60.00%  %      cpu2 utilization",
  };
  EXPECT_EQ(split(render_table({table})), expected);
  EXPECT_EQ(value(table, 0, 1, "Avg"), "30");
  EXPECT_EQ(value(table, 0, 0, "Max"), "3.14573e+06");
}

TEST_F(StatsReports, DeviceUtilizationInWindows) {
  ReportOptions options;
  options.interval_ns = 1000 * kUs;
  const StatsTable table = one("device-utilization", options);
  ASSERT_EQ(table.sections.size(), 2u);
  // GCU 0 is busy [0,2000) [2500,3600) [5000,5100) [9000,9050) us; the
  // report spans [0, 10000) us.
  const uint64_t busy0[] = {1000, 1000, 500, 600, 0, 100, 0, 0, 0, 50};
  ASSERT_EQ(table.sections[0].rows.size(), 10u);
  for (size_t w = 0; w < 10; ++w) {
    EXPECT_EQ(value(table, 0, w, "Start(ns)"), std::to_string(w * 1000 * kUs));
    EXPECT_EQ(value(table, 0, w, "Busy(ns)"), std::to_string(busy0[w] * kUs)) << "window " << w;
  }
  EXPECT_EQ(value(table, 0, 2, "Busy(%)"), "50");
  // GCU 1: [1000, 4500) us, its two slices abutting.
  const uint64_t busy1[] = {0, 1000, 1000, 1000, 500, 0, 0, 0, 0, 0};
  for (size_t w = 0; w < 10; ++w)
    EXPECT_EQ(value(table, 1, w, "Busy(ns)"), std::to_string(busy1[w] * kUs)) << "window " << w;
  EXPECT_EQ(table.sections[1].title, "======== Device utilization (GCU 1, 1.00ms windows):");
}

TEST_F(StatsReports, DeviceGapsOverTheThreshold) {
  ReportOptions options;
  options.gap_threshold_ns = 1000 * kUs;
  const StatsTable table = one("device-gaps", options);
  ASSERT_EQ(table.sections.size(), 1u);         // GCU 1 has none
  ASSERT_EQ(table.sections[0].rows.size(), 2u); // the 500 us one is under the threshold
  EXPECT_EQ(value(table, 0, 0, "Start(ns)"), std::to_string(3600 * kUs));
  EXPECT_EQ(value(table, 0, 0, "End(ns)"), std::to_string(5000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Duration(ns)"), std::to_string(1400 * kUs));
  EXPECT_EQ(value(table, 0, 1, "Duration(ns)"), std::to_string(3900 * kUs));
  EXPECT_EQ(table.notes[0], "GCU 0: 2 gaps over 1.00ms, 5.30ms in all");
  EXPECT_EQ(table.notes[1], "GCU 1: 0 gaps over 1.00ms, 0.00ns in all");

  EXPECT_EQ(
      split(render_table({table})),
      (Lines{"======== Device gaps (GCU 0, over 1.00ms):", " Start     End  Duration",
             "3.60ms  5.00ms    1.40ms", "5.10ms  9.00ms    3.90ms",
             "GCU 0: 2 gaps over 1.00ms, 5.30ms in all", "GCU 1: 0 gaps over 1.00ms, 0.00ns in all",
             "times count from the report's first event"}));
  options.gap_threshold_ns = 4000 * kUs;
  EXPECT_EQ(split(render_table({one("device-gaps", options)})).front(),
            "======== Device gaps (over 4.00ms): none on any device");

  options.gap_threshold_ns = 400 * kUs;
  EXPECT_EQ(one("device-gaps", options).sections[0].rows.size(), 3u);
  // With utilization too, the timeline is exact and the gaps the same.
  const auto both = run({"device-gaps", "device-utilization"}, options);
  EXPECT_EQ(both[0].sections[0].rows.size(), 3u);
}

TEST_F(StatsReports, CpuFunctionsFromSamplesOnly) {
  const StatsTable table = one("cpu-functions");
  const Lines expected{
      "======== CPU functions (4 samples):",     "Self(%)  Self  Total(%)  Total  Function",
      " 75.00%     3   100.00%      4  compute", " 25.00%     1    25.00%      1  helper",
      "  0.00%     0   100.00%      4  main",
  };
  EXPECT_EQ(split(render_table({table})), expected);
}

// Annotation slices by domain and name, whatever their thread; slices of
// other kinds (an "nvtx" category alone, as before ABI 1.5) are not counted.
TEST_F(StatsReports, NvtxByNameAndDomain) {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "app");
  const uint32_t main = r.track(PROF_TRACK_THREAD, process, "main");
  const uint32_t worker = r.track(PROF_TRACK_THREAD, process, "worker");
  r.annotation(main, us(0), 10000 * kUs, "step");
  r.annotation(main, us(100), 3000 * kUs, "forward", "train");
  r.annotation(worker, us(0), 1000 * kUs, "forward", "train");
  r.annotation(worker, us(2000), 500 * kUs, "forward");
  r.annotation(main, us(20000), 6000 * kUs, "step");
  r.slice(main, us(30000), 100 * kUs, "legacy", "nvtx");
  r.slice(main, us(30000), 10 * kUs, "read", "osrt");
  open(r, 3);

  const StatsTable table = one("nvtx");
  ASSERT_EQ(table.row_count(), 3u);
  EXPECT_EQ(value(table, 0, 0, "Name"), "step");
  EXPECT_EQ(value(table, 0, 0, "Domain"), "");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "2");
  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), std::to_string(16000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Avg(ns)"), std::to_string(8000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Min(ns)"), std::to_string(6000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Max(ns)"), std::to_string(10000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Time(%)"), "78.05");
  EXPECT_EQ(value(table, 0, 1, "Name"), "forward");
  EXPECT_EQ(value(table, 0, 1, "Domain"), "train");
  EXPECT_EQ(value(table, 0, 1, "Calls"), "2");
  EXPECT_EQ(value(table, 0, 1, "Min(ns)"), std::to_string(1000 * kUs));
  EXPECT_EQ(value(table, 0, 2, "Name"), "forward");
  EXPECT_EQ(value(table, 0, 2, "Domain"), "");
  EXPECT_EQ(value(table, 0, 2, "Time(%)"), "2.44");
  // Of their threads' time: main [0, 30100) us, worker [0, 2500) us.
  EXPECT_EQ(value(table, 0, 0, "Thread(%)"), "53.16");
  EXPECT_EQ(value(table, 0, 1, "Thread(%)"), "12.27");
  EXPECT_EQ(value(table, 0, 2, "Thread(%)"), "20");
  ASSERT_EQ(table.notes.size(), 1u);

  const Lines text = split(render_table({table}));
  EXPECT_EQ(text.at(0), "======== Annotation ranges (nvtx):");
  EXPECT_EQ(text.at(1),
            "Time(%)      Time  Calls       Avg       Min       Max  Thread(%)  Domain  Name");
  EXPECT_EQ(text.at(2),
            " 78.05%   16.00ms      2    8.00ms    6.00ms   10.00ms     53.16%  -       step");

  const Lines csv = split(render_csv({table}));
  ASSERT_GE(csv.size(), 4u);
  EXPECT_EQ(csv[0],
            "Category,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Thread(%),Domain,Name");
  EXPECT_EQ(csv[1], "nvtx,78.05,16000000,2,8000000,6000000,10000000,53.16,,step");
  EXPECT_EQ(csv[2], "nvtx,19.51,4000000,2,2000000,1000000,3000000,12.27,train,forward");

  const Json json = JsonParser::parse(render_json({table}));
  const Json &forward = json["nvtx"]["rows"].items.at(1);
  EXPECT_EQ(forward["Category"].text, "nvtx");
  EXPECT_EQ(forward["Domain"].text, "train");
  EXPECT_EQ(forward["Calls"].number, 2);
  EXPECT_EQ(forward["Time(ns)"].number, 4e6);
  EXPECT_EQ(forward["Thread(%)"].number, 12.27);
  EXPECT_EQ(json["nvtx"]["notes"].items.size(), 1u);
}

// Annotation ranges are the sources' own: a torch report's (its user
// annotations, the steps taken from ProfilerStep#N) are not NVTX's. Each
// category ("torch", "nvtx" with its "nvtx/DOMAIN") gets its own section,
// titled and labelled by it, with its own Time(%); no table says NVTX.
TEST_F(StatsReports, AnnotationRangesAreGroupedByTheirCategory) {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "train.py");
  const uint32_t main = r.track(PROF_TRACK_THREAD, process, "main");
  r.annotation(main, us(0), 6000 * kUs, "step", "", "torch/step");
  r.annotation(main, us(100), 2000 * kUs, "DistributedDataParallel.forward", "", "torch");
  r.annotation(main, us(200), 3000 * kUs, "epoch");
  r.annotation(main, us(300), 1000 * kUs, "load", "io");
  open(r, 3);

  const StatsTable table = one("nvtx");
  EXPECT_EQ(table.label_key, "Category");
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(table.sections[0].label, "nvtx");
  EXPECT_EQ(table.sections[0].title, "======== Annotation ranges (nvtx):");
  ASSERT_EQ(table.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(table, 0, 0, "Name"), "epoch");
  EXPECT_EQ(value(table, 0, 0, "Time(%)"), "75");
  EXPECT_EQ(value(table, 0, 1, "Name"), "load");
  EXPECT_EQ(value(table, 0, 1, "Domain"), "io");
  EXPECT_EQ(table.sections[1].label, "torch");
  EXPECT_EQ(table.sections[1].title, "======== Annotation ranges (torch):");
  ASSERT_EQ(table.sections[1].rows.size(), 2u);
  EXPECT_EQ(value(table, 1, 0, "Name"), "step");
  EXPECT_EQ(value(table, 1, 0, "Time(%)"), "75");
  EXPECT_EQ(value(table, 1, 1, "Name"), "DistributedDataParallel.forward");
  EXPECT_EQ(value(table, 1, 1, "Time(%)"), "25");

  const std::string text = render_table({table});
  EXPECT_EQ(text.find("NVTX"), std::string::npos) << text;
  const Lines csv = split(render_csv({table}));
  ASSERT_GE(csv.size(), 5u);
  EXPECT_EQ(csv[0],
            "Category,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Thread(%),Domain,Name");
  EXPECT_EQ(csv[3].rfind("torch,75,", 0), 0u) << csv[3];
  const Json json = JsonParser::parse(render_json({table}));
  EXPECT_EQ(json["nvtx"]["rows"].items.at(3)["Category"].text, "torch");
  EXPECT_EQ(json["nvtx"]["rows"].items.at(3)["Name"].text, "DistributedDataParallel.forward");
}

// Traced Python functions are the python source's annotation ranges: its
// category strings ("python", "python/DOMAIN") only, not NVTX's, and the
// NVTX report leaves them out.
TEST_F(StatsReports, PythonFunctionsAreThePythonSourcesRanges) {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "app");
  const uint32_t main = r.track(PROF_TRACK_THREAD, process, "main");
  r.annotation(main, us(0), 8000 * kUs, "SGD.step", "", "python");
  r.annotation(main, us(9000), 1000 * kUs, "Linear.forward", "", "python");
  r.annotation(main, us(10000), 1000 * kUs, "Linear.forward", "", "python");
  r.annotation(main, us(12000), 2500 * kUs, "all_reduce", "comm", "python");
  r.annotation(main, us(0), 20000 * kUs, "epoch");              // NVTX's
  r.annotation(main, us(0), 500 * kUs, "step", "", "pythonic"); // not "python/..."
  open(r, 3);

  const StatsTable table = one("python-functions");
  ASSERT_EQ(table.row_count(), 3u);
  EXPECT_EQ(value(table, 0, 0, "Name"), "SGD.step");
  EXPECT_EQ(value(table, 0, 0, "Time(%)"), "64");
  EXPECT_EQ(value(table, 0, 1, "Name"), "all_reduce");
  EXPECT_EQ(value(table, 0, 1, "Domain"), "comm");
  EXPECT_EQ(value(table, 0, 2, "Name"), "Linear.forward");
  EXPECT_EQ(value(table, 0, 2, "Calls"), "2");
  EXPECT_EQ(split(render_table({table})).at(0), "======== Python functions:");
  // The annotation report keeps the other ranges, each under its category.
  const StatsTable others = one("nvtx");
  ASSERT_EQ(others.row_count(), 2u);
  ASSERT_EQ(others.sections.size(), 2u);
  EXPECT_EQ(others.sections[0].label, "nvtx");
  EXPECT_EQ(value(others, 0, 0, "Name"), "epoch");
  EXPECT_EQ(value(others, 0, 0, "Time(%)"), "100");
  EXPECT_EQ(others.sections[1].label, "pythonic");
  EXPECT_EQ(value(others, 1, 0, "Name"), "step");

  testing::TestReport none;
  none.annotation(none.track(PROF_TRACK_THREAD, 0, "main"), us(0), kUs, "epoch");
  open(none, 3);
  EXPECT_EQ(render_table({one("python-functions")}),
            "======== Python functions: none in this report\n");
}

// The memory source's summary instants, per process: the peak and its
// call sites and sampled stacks, the leaks by call site (most bytes first)
// and by stack, the sizes.
TEST_F(StatsReports, MemoryShowsEachProcesssHeap) {
  testing::TestReport r;
  const uint32_t app = r.process("app", 42);
  const uint32_t child = r.process("worker", 43);
  const uint64_t end = kOrigin + 9 * kUs;
  r.heap(app, kOrigin + 2 * kUs, "heap peak", "heap/peak", {{"bytes", 5000}});
  r.heap(app, kOrigin + 3 * kUs, "heap at peak sites", "heap/peak-sites", {{"bytes", 4900}});
  r.heap(app, kOrigin + 3 * kUs, "load", "heap/peak-site", {{"bytes", 4000}, {"blocks", 4}});
  r.heap(app, kOrigin + 3 * kUs, "parse", "heap/peak-site", {{"bytes", 900}, {"blocks", 9}});
  r.heap(app, end, "parse", "heap/leak", {{"bytes", 90}, {"blocks", 1}});
  r.heap(app, end, "load", "heap/leak", {{"bytes", 1000}, {"blocks", 1}});
  r.heap(app, end, "<= 64 B", "heap/size-class", {{"allocations", 12}});
  r.heap(app, end, "heap totals", "heap/totals",
         {{"allocations", 14},
          {"frees", 12},
          {"bytes allocated", 6000},
          {"temporary allocations", 3},
          {"stack sample bytes", 524288}});
  r.heap(child, end, "spawn", "heap/leak", {{"bytes", 7}, {"blocks", 7}});
  // prof's own blocks still live: told apart, not among the leaks.
  r.heap(app, end, "(prof's own allocations)", "heap/prof-live", {{"bytes", 344}, {"blocks", 3}});
  r.instant(app, end, "unrelated"); // no heap category
  std::vector<std::string> deep = {"malloc_site", "train_step (train.py:12)",
                                   "<module> (train.py:40)"};
  for (int i = 0; i < 12; ++i)
    deep.push_back("frame" + std::to_string(i));
  const uint32_t load_stack = r.stack(deep);
  r.heap(app, kOrigin + 3 * kUs, "malloc_site", "heap/peak-stack",
         {{"bytes", 3000}, {"error bytes", 800}, {"samples", 5}}, load_stack);
  r.heap(app, end, "malloc_site", "heap/leak-stack",
         {{"bytes", 1100}, {"error bytes", 400}, {"samples", 2}}, load_stack);
  open(r, 3);

  const StatsTable table = one("memory");
  ASSERT_EQ(table.sections.size(), 6u);
  EXPECT_EQ(table.sections[0].title,
            "======== Heap of app (pid 42): peak 5000 bytes, 2.00us into the report; call sites "
            "at the largest heap sampled (4900 bytes, 3.00us into the report):");
  EXPECT_EQ(value(table, 0, 0, "Site"), "load");
  EXPECT_EQ(value(table, 0, 1, "Blocks"), "9");
  EXPECT_EQ(value(table, 0, 1, "Error"), ""); // shown "-": exact
  // The sampled stacks: estimate, error, samples, the first 12 frames shown
  // and every frame in the data.
  EXPECT_EQ(table.sections[1].title,
            "======== Heap of app (pid 42): call stacks at the largest heap sampled (stacks "
            "sampled every 524288 bytes on average, bytes estimated within Error):");
  EXPECT_EQ(value(table, 1, 0, "Bytes"), "3000");
  EXPECT_EQ(value(table, 1, 0, "Error"), "800");
  EXPECT_EQ(value(table, 1, 0, "Blocks"), "5");
  const std::string shown = table.sections[1].rows[0][4].text;
  EXPECT_TRUE(shown.starts_with(
      "malloc_site <- train_step (train.py:12) <- <module> (train.py:40) <- frame0 <- "))
      << shown;
  EXPECT_TRUE(shown.ends_with("frame8 <- ... (15 frames)")) << shown;
  EXPECT_TRUE(value(table, 1, 0, "Site").ends_with("frame10 <- frame11"));
  EXPECT_EQ(table.sections[2].title,
            "======== Heap of app (pid 42): live at exit (leaks), 1090 bytes in 2 blocks (and "
            "prof's own, not counted: 344 bytes in 3 blocks):");
  ASSERT_EQ(table.sections[2].rows.size(), 2u);
  EXPECT_EQ(value(table, 2, 0, "Site"), "load");
  EXPECT_EQ(value(table, 2, 0, "Bytes"), "1000");
  EXPECT_EQ(value(table, 2, 1, "Site"), "parse");
  EXPECT_EQ(table.sections[3].title,
            "======== Heap of app (pid 42): live at exit by call stack (stacks sampled every "
            "524288 bytes on average, bytes estimated within Error):");
  EXPECT_EQ(value(table, 3, 0, "Bytes"), "1100");
  EXPECT_EQ(table.sections[4].title,
            "======== Heap of app (pid 42): 14 allocations (6000 bytes), 12 frees, 3 temporary "
            "(freed before the thread's next allocation); by size:");
  EXPECT_EQ(value(table, 4, 0, "Site"), "<= 64 B");
  EXPECT_EQ(value(table, 4, 0, "Blocks"), "12");
  EXPECT_EQ(table.sections[5].title,
            "======== Heap of worker (pid 43): live at exit (leaks), 7 bytes in 7 blocks:");
  EXPECT_EQ(table.sections[5].label, "worker (pid 43)");

  testing::TestReport none;
  none.instant(none.process("app", 1), kOrigin, "x");
  open(none, 3);
  EXPECT_EQ(render_table({one("memory")}),
            "======== Heap: no memory profile in this report (prof --memory-profile)\n");
}

TEST_F(StatsReports, EmptyReportsSayWhatIsMissing) {
  testing::TestReport empty;
  empty.track(PROF_TRACK_THREAD, 0, "main");
  open(empty, 10);
  const auto tables = run({"gcu-activity", "device-gaps", "cpu-functions", "counters", "nvtx"});
  EXPECT_EQ(render_table(tables), "======== GCU activities: none in this report\n"
                                  "======== Device gaps: no device activities in this report\n"
                                  "======== CPU functions: no CPU samples in this report\n"
                                  "======== Counters: none in this report\n"
                                  "======== Annotation ranges: none in this report\n");
  const Json json = JsonParser::parse(render_json(tables));
  EXPECT_TRUE(json["gcu-activity"]["rows"].items.empty());
}

TEST_F(StatsReports, JsonHasARowObjectPerRowWithNumbers) {
  const std::vector<std::string> all = [] {
    std::vector<std::string> names;
    for (const auto &info : known_reports())
      names.emplace_back(info.name);
    return names;
  }();
  const auto tables = run(all);
  const Json json = JsonParser::parse(render_json(tables));
  ASSERT_EQ(json.members.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i)
    EXPECT_EQ(json.members[i].first, all[i]);
  const Json &conv = json["gcu-activity"]["rows"].items.at(0);
  EXPECT_EQ(conv["Name"].text, "conv");
  EXPECT_EQ(conv["Calls"].kind, Json::Kind::Number);
  EXPECT_EQ(conv["Calls"].number, 3);
  EXPECT_EQ(conv["Time(ns)"].number, 6e6);
  EXPECT_DOUBLE_EQ(conv["Time(%)"].number, 87.59);
  EXPECT_FALSE(conv.has("Type")); // console only
  const Json &gpu1 = json["gcu-activity-per-device"]["rows"].items.at(4);
  EXPECT_EQ(gpu1["Device"].text, "GCU 1");
  EXPECT_EQ(json["counters"]["rows"].items.at(0)["Unit"].text, "bytes");
  EXPECT_EQ(json["memcpy-size"]["rows"].items.at(1)["Total(B)"].number, 1048576);
  EXPECT_EQ(json["device-gaps"]["rows"].items.at(0)["Duration(ns)"].number, 1.4e6);
}

TEST_F(StatsReports, CsvHasOneHeaderAndItsColumnsPerReport) {
  const Lines single = split(render_csv(run({"gcu-activity"})));
  ASSERT_EQ(single.size(), 6u);
  EXPECT_EQ(single[0], "Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name");
  EXPECT_EQ(single[1], "87.59,6000000,3,2000000,1000000,3000000,conv");

  const Lines several = split(render_csv(run({"api", "device-gaps", "memcpy-size"})));
  const Lines expected_start{"# report api",
                             "Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name",
                             "100,12000,2,6000,5000,7000,gcuLaunchKernel",
                             "",
                             "# report device-gaps",
                             "Device,Start(ns),End(ns),Duration(ns)",
                             "GCU 0,3600000,5000000,1400000",
                             "GCU 0,5100000,9000000,3900000"};
  ASSERT_GE(several.size(), expected_start.size());
  EXPECT_EQ(Lines(several.begin(), several.begin() + expected_start.size()), expected_start);
  // Every data row has as many fields as its header.
  size_t fields = 0;
  for (const std::string &line : several) {
    if (line.empty() || line[0] == '#') {
      fields = 0;
      continue;
    }
    const size_t n = std::count(line.begin(), line.end(), ',') + 1;
    if (fields == 0) fields = n;
    EXPECT_EQ(n, fields) << line;
  }
}

TEST(StatsCsv, QuotesFieldsThatNeedIt) {
  StatsTable table{"x", "", {{"Name", "Name", stats::Align::Left}}, {}, "", {}};
  table.sections.push_back({"", "t", {{Cell::of_text("a,b")}, {Cell::of_text("say \"hi\"")}}});
  EXPECT_EQ(render_csv({table}), "Name\n\"a,b\"\n\"say \"\"hi\"\"\"\n");
  EXPECT_EQ(JsonParser::parse(render_json({table}))["x"]["rows"].items[1]["Name"].text,
            "say \"hi\"");
}

// The parallel scan: any number of threads gives what one thread gives, and
// what folding the batches one after the other gives.
TEST_F(StatsReports, ParallelScanEqualsSequential) {
  open(testing::random_report(60'000, 3), 500); // 120 chunks
  ASSERT_EQ(reader_.event_chunks().size(), 120u);
  const std::vector<std::string> all = every_report();
  const ReportOptions options = fine_options();
  const std::string one_thread = render_json(run(all, options, 1));
  EXPECT_EQ(render_json(run(all, options, 4)), one_thread);
  EXPECT_EQ(render_json(run(all, options, 16)), one_thread);

  StatsAggregator sequential(host_->host(), scope_for(all, options));
  reader_.for_each_event_batch(
      [&](const prof_event *events, size_t count) { sequential.add(events, count); });
  // Counter averages are sums of doubles in another order: compare the text,
  // which rounds them.
  EXPECT_EQ(render_every_report(sequential, options), render_table(run(all, options, 4)));
}

// `prof stats` over MPI: shares of the chunks scanned apart, sent as bytes
// and added up give what one scan of everything gives; bytes that are not
// an aggregator's are refused and change nothing.
TEST_F(StatsReports, SharesSentAsBytesAddUpToTheWhole) {
  testing::TestReport report = testing::random_report(60'000, 3);
  // And what the random report lacks: two ranks' collectives, device
  // memory and the calls that made it, the memory source's summary,
  // framework operators, steps and launches.
  const uint32_t thread0 = report.thread(report.process("rank 0", 100), "main", 100);
  const uint32_t thread1 = report.thread(report.process("rank 1", 200), "main", 200);
  const uint32_t gpu = report.track(PROF_TRACK_DEVICE, 0, "GPU 9", 9);
  // Each rank's stream on the device they share: device work by owner.
  const uint32_t streams[] = {report.owned(PROF_TRACK_ENGINE, gpu, "Stream 1", 100),
                              report.owned(PROF_TRACK_ENGINE, gpu, "Stream 1", 200)};
  // A merged input's process and its device, which names no owner.
  const uint32_t node = report.thread(report.process("app [node 7]", 300), "main", 300);
  const uint32_t node_gcu = report.track(PROF_TRACK_DEVICE, 0, "GCU 7 [node 7]", 7);
  for (uint64_t i = 0; i < 2000; ++i) {
    const uint64_t ts = kOrigin + i * 50 * kUs;
    report.slice(streams[i % 2], ts + 2 * kUs, (i % 5 + 1) * kUs, i % 3 ? "gemm" : "relu", "",
                 PROF_CATEGORY_KERNEL);
    // Collective kernels beside them, on the owners' streams and on node 7's device.
    report.slice(streams[(i + 1) % 2], ts + 4 * kUs, (i % 4 + 2) * kUs, "all_reduce", "",
                 PROF_CATEGORY_COMMUNICATION);
    report.slice(node_gcu, ts + kUs, (i % 6 + 1) * kUs, "conv", "", PROF_CATEGORY_KERNEL);
    report.slice(node_gcu, ts + 3 * kUs, (i % 3 + 2) * kUs, "all_gather", "",
                 PROF_CATEGORY_COMMUNICATION);
    if (i % 10 == 0) report.communication(node, ts, 30 * kUs, "MPI_Barrier", "world");
    report.communication(thread0, ts, 20 * kUs, "MPI_Allreduce", "world", 64, i + 1);
    report.communication(thread1, ts + 3 * kUs, 17 * kUs, "MPI_Allreduce", "world", 64, i + 1);
    report.call(thread0, ts + 25 * kUs, kUs, "cudaMalloc", 5000 + i);
    // Launches: copies that their calls wait for now and then, waits (findings).
    report.call(thread0, ts + 10 * kUs, (i % 4 + 1) * kUs, "cudaMemcpy", 90'000 + i);
    report.work(streams[0], ts + 11 * kUs, (i % 3 + 1) * kUs, "Memcpy HtoD",
                PROF_CATEGORY_MEMCPY_HTOD, 90'000 + i,
                {{"src_kind", i % 5 ? "pinned" : "pageable"}});
    if (i % 7 == 0) report.slice(thread0, ts + 16 * kUs, 3 * kUs, "wait", "", PROF_CATEGORY_SYNC);
    report.memory(gpu, ts + 25 * kUs, "alloc", 0x10000 + i * 4096, 4096, "device", 5000 + i);
    if (i % 2 == 0) report.memory(gpu, ts + 40 * kUs, "free", 0x10000 + i * 4096, 4096);
    report.op(thread0, ts + 30 * kUs, (i % 7 + 1) * kUs, i % 3 ? "aten::mm" : "MmBackward0",
              i % 3 ? "" : "backward", i % 5 ? static_cast<int64_t>(i % 4) * 100 : -1,
              "[[" + std::to_string(i % 4) + ", 8]]",
              testing::TestReport::OpMemory{static_cast<int64_t>(i % 11) * 64 - 256,
                                            -static_cast<int64_t>(i % 3) * 32});
    report.step(i % 2 ? thread0 : thread1, ts + 5 * kUs, (i % 9 + 1) * kUs, i / 100 + 1);
  }
  report.heap(thread0, kOrigin + kUs, "heap peak", "heap/peak", {{"bytes", 5000}});
  // And a dump's: calls and ranges open at its end, and stacks.
  for (uint64_t i = 0; i < 40; ++i) {
    const uint64_t ts = kOrigin + i * 2500 * kUs;
    report.communication(i % 2 ? thread0 : thread1, ts, 10 * kUs, "MPI_Allreduce", "world", 64,
                         2001 + i / 2);
    report.unfinished();
    report.annotation(thread1, ts, 5 * kUs, "stall " + std::to_string(i), "", "python");
    report.unfinished();
    report.sample(i % 3 ? thread0 : thread1, ts, report.stack({"f" + std::to_string(i), "main"}));
  }
  open(report, 500);
  ASSERT_GE(reader_.event_chunks().size(), 120u);
  const ReportOptions options = fine_options();
  const StatsScope scope = scope_for(every_report(), options);
  const auto render = [&](StatsAggregator &aggregator) {
    return render_every_report(aggregator, options);
  };
  const auto share = [&](size_t first, size_t last) {
    tool::ScanOptions scan;
    scan.first_chunk = first;
    scan.last_chunk = last;
    return tool::scan_report(reader_, host_->host(), scope, scan).aggregator;
  };
  StatsAggregator whole = share(0, SIZE_MAX);
  const std::string expected = render(whole);

  const size_t chunks = reader_.event_chunks().size();
  StatsAggregator first = share(0, 37), second = share(37, 80), third = share(80, chunks);
  const std::vector<uint8_t> second_bytes = AggregatorWire::save(second);
  std::vector<uint8_t> third_bytes = AggregatorWire::save(third);
  ASSERT_TRUE(AggregatorWire::load(second_bytes, first));
  const std::string two_shares = render(first);
  EXPECT_NE(two_shares, expected);

  // Cut anywhere, or with its first byte changed: refused, nothing added.
  for (const size_t cut : {size_t{0}, size_t{3}, third_bytes.size() / 2, third_bytes.size() - 1})
    EXPECT_FALSE(AggregatorWire::load(std::span(third_bytes.data(), cut), first)) << cut;
  third_bytes.push_back(0);
  EXPECT_FALSE(AggregatorWire::load(third_bytes, first)) << "a byte too many";
  third_bytes.pop_back();
  third_bytes[0] ^= 1;
  EXPECT_FALSE(AggregatorWire::load(third_bytes, first)) << "not the magic";
  third_bytes[0] ^= 1;
  EXPECT_EQ(render(first), two_shares);

  ASSERT_TRUE(AggregatorWire::load(third_bytes, first));
  EXPECT_EQ(render(first), expected);
}

} // namespace
} // namespace prof::stats
