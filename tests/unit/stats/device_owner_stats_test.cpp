// Device work in one report of several processes that share a device: each
// process's streams are its own (prof_track_desc::pid, ABI 1.10), so the
// statistics count that work as the owner's, whatever the device's name.
#include "stats_report_fixture.hpp"

#include <gtest/gtest.h>

namespace prof::stats {
namespace {

using testing::kOrigin;
using testing::kUs;
using testing::value;

constexpr uint64_t us(uint64_t n) { return kOrigin + n * kUs; }

class DeviceOwnerStats : public testing::ReportFixture {
protected:
  /// Two processes on one device ("NPU 0", shared), each with its own
  /// queue under a shared engine; a third track under the device names no
  /// owner (a source before ABI 1.10).
  ///   a (10): matmul [0, 100) and [200, 300), on its queue
  ///   b (20): matmul [50, 350), softmax [400, 450), on its queue
  ///   no owner: a copy [500, 520)
  void SetUp() override {
    a_ = report_.process("a", 10);
    b_ = report_.process("b", 20);
    a_main_ = report_.thread(a_, "a", 10);
    b_main_ = report_.thread(b_, "b", 20);
    const uint32_t npu = report_.shared(PROF_TRACK_DEVICE, 0, "NPU 0", 0);
    const uint32_t engine = report_.shared(PROF_TRACK_ENGINE, npu, "Compute", 0);
    a_queue_ = report_.owned(PROF_TRACK_ENGINE, engine, "Queue 1", 10);
    b_queue_ = report_.owned(PROF_TRACK_ENGINE, engine, "Queue 1", 20);
    const uint32_t dma = report_.track(PROF_TRACK_ENGINE, npu, "DMA", 0);
    report_.slice(a_queue_, us(0), 100 * kUs, "matmul", "", PROF_CATEGORY_KERNEL);
    report_.slice(a_queue_, us(200), 100 * kUs, "matmul", "", PROF_CATEGORY_KERNEL);
    report_.slice(b_queue_, us(50), 300 * kUs, "matmul", "", PROF_CATEGORY_KERNEL);
    report_.slice(b_queue_, us(400), 50 * kUs, "softmax", "", PROF_CATEGORY_KERNEL);
    report_.copy(dma, us(500), 20 * kUs, "copy", "", PROF_CATEGORY_MEMCPY_HTOD, 64);
  }

  testing::TestReport report_;
  uint32_t a_ = 0, b_ = 0, a_main_ = 0, b_main_ = 0, a_queue_ = 0, b_queue_ = 0;
};

TEST_F(DeviceOwnerStats, GcuActivityHasEachProcesssOwnWork) {
  open(report_, 2);
  const StatsTable table = one("gcu-activity");
  EXPECT_EQ(table.label_key, "Process");
  ASSERT_EQ(table.sections.size(), 4u);
  EXPECT_EQ(table.sections[0].label, "all");
  EXPECT_EQ(value(table, 0, 0, "Name"), "matmul");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "3");
  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), "500000");

  EXPECT_EQ(table.sections[1].label, "a (10)");
  ASSERT_EQ(table.sections[1].rows.size(), 1u);
  EXPECT_EQ(value(table, 1, 0, "Name"), "matmul");
  EXPECT_EQ(value(table, 1, 0, "Calls"), "2");
  EXPECT_EQ(value(table, 1, 0, "Time(ns)"), "200000");

  EXPECT_EQ(table.sections[2].label, "b (20)");
  ASSERT_EQ(table.sections[2].rows.size(), 2u);
  EXPECT_EQ(value(table, 2, 0, "Name"), "matmul");
  EXPECT_EQ(value(table, 2, 0, "Calls"), "1");
  EXPECT_EQ(value(table, 2, 0, "Time(ns)"), "300000");
  EXPECT_EQ(value(table, 2, 1, "Name"), "softmax");

  // The copy is on a track no process owns.
  EXPECT_EQ(table.sections[3].label, "no process");
  ASSERT_EQ(table.sections[3].rows.size(), 1u);
  EXPECT_EQ(value(table, 3, 0, "Name"), "copy");
}

TEST_F(DeviceOwnerStats, KernelsOfEachProcessAddUpToTheWhole) {
  open(report_, 3);
  const StatsTable table = one("kernels");
  ASSERT_EQ(table.sections.size(), 3u) << "kernels only: the copy has no section";
  uint64_t calls = 0;
  for (size_t section = 1; section < table.sections.size(); ++section)
    for (size_t row = 0; row < table.sections[section].rows.size(); ++row)
      calls += std::stoull(value(table, section, row, "Calls"));
  EXPECT_EQ(calls, 4u);
  EXPECT_EQ(table.sections[1].label, "a (10)");
  EXPECT_EQ(value(table, 1, 0, "Calls"), "2");
  EXPECT_EQ(table.sections[2].label, "b (20)");
  EXPECT_EQ(value(table, 2, 1, "Name"), "softmax");
}

// One process's report (a part of a split capture) is the whole: no sections.
TEST_F(DeviceOwnerStats, OneOwnerAddsNoSections) {
  testing::TestReport report;
  const uint32_t app = report.process("a", 10);
  report.thread(app, "a", 10);
  const uint32_t npu = report.shared(PROF_TRACK_DEVICE, 0, "NPU 0", 0);
  const uint32_t queue = report.owned(PROF_TRACK_ENGINE, npu, "Queue 1", 10);
  report.slice(queue, us(0), 100 * kUs, "matmul", "", PROF_CATEGORY_KERNEL);
  open(report, 2);
  for (const char *name : {"gcu-activity", "kernels"}) {
    const StatsTable table = one(name);
    EXPECT_EQ(table.sections.size(), 1u) << name;
    EXPECT_EQ(table.label_key, "") << name;
  }
}

// A step range on a device's queue (the device's part of a step) is its
// owner's, not a rank of no process.
TEST_F(DeviceOwnerStats, StepsOnAQueueAreItsOwners) {
  report_.step(a_main_, us(0), 100 * kUs, 1);
  report_.step(b_queue_, us(50), 300 * kUs, 1);
  report_.step(b_main_, us(0), 10 * kUs, 1);
  open(report_, 2);
  const StatsTable table = one("steps");
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(value(table, 0, 0, "Ranks"), "2");
  EXPECT_EQ(value(table, 0, 0, "Slowest"), "b (20)");
  ASSERT_EQ(table.sections[1].rows.size(), 2u);
  EXPECT_EQ(value(table, 1, 1, "Process"), "b (20)");
  EXPECT_EQ(value(table, 1, 1, "Time(ns)"), "350000"); // [0, 350)
}

// Overlap: a process's communication against its own kernels, not the
// other process's on the same device. Idle: a row per process.
TEST_F(DeviceOwnerStats, OverlapAndIdleCountEachProcesssOwnWork) {
  // a is in a call over [100, 200): its device is idle, b's kernel runs.
  report_.communication(a_main_, us(100), 100 * kUs, "allreduce", "world");
  report_.communication(b_main_, us(350), 50 * kUs, "allreduce", "world");
  open(report_, 2);
  const StatsTable overlap = one("overlap");
  ASSERT_EQ(overlap.sections.size(), 1u);
  ASSERT_EQ(overlap.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(overlap, 0, 0, "Process"), "a (10)");
  EXPECT_EQ(value(overlap, 0, 0, "Overlapped(ns)"), "0");
  EXPECT_EQ(value(overlap, 0, 0, "Devices"), "1");
  EXPECT_EQ(value(overlap, 0, 1, "Process"), "b (20)");
  EXPECT_EQ(value(overlap, 0, 1, "Overlapped(ns)"), "0");
  EXPECT_EQ(value(overlap, 0, 1, "DeviceCommunication(ns)"), "") << "no collective kernels";

  const StatsTable idle = one("idle");
  ASSERT_EQ(idle.sections.size(), 1u);
  ASSERT_EQ(idle.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(idle, 0, 0, "Device"), "NPU 0");
  EXPECT_EQ(value(idle, 0, 0, "Process"), "a (10)");
  EXPECT_EQ(value(idle, 0, 0, "Span(ns)"), "300000");
  EXPECT_EQ(value(idle, 0, 0, "Idle(ns)"), "100000");
  EXPECT_EQ(value(idle, 0, 0, "Communication(ns)"), "100000");
  EXPECT_EQ(value(idle, 0, 1, "Process"), "b (20)");
  EXPECT_EQ(value(idle, 0, 1, "Idle(ns)"), "50000");          // [350, 400)
  EXPECT_EQ(value(idle, 0, 1, "Communication(ns)"), "50000"); // b's call
}

// Collective kernels on each process's queue: each process's device
// figure counts its own collectives against its own kernels, and a process
// without communication calls on the host still has its row.
//   a: collective [80, 220) against its matmuls [0, 100) and [200, 300)
//   b: collective [450, 500) after its softmax; no calls on the host
TEST_F(DeviceOwnerStats, DeviceOverlapCountsEachProcesssOwnCollectives) {
  report_.communication(a_main_, us(100), 100 * kUs, "allreduce", "world");
  report_.slice(a_queue_, us(80), 140 * kUs, "all_reduce", "", PROF_CATEGORY_COMMUNICATION);
  report_.slice(b_queue_, us(450), 50 * kUs, "all_reduce", "", PROF_CATEGORY_COMMUNICATION);
  open(report_, 2);
  const StatsTable overlap = one("overlap");
  ASSERT_EQ(overlap.sections.size(), 1u);
  ASSERT_EQ(overlap.sections[0].rows.size(), 2u);
  EXPECT_EQ(value(overlap, 0, 0, "Process"), "a (10)");
  EXPECT_EQ(value(overlap, 0, 0, "Communication(ns)"), "100000");
  // b's matmul ran through all of a's collective: not a's compute.
  EXPECT_EQ(value(overlap, 0, 0, "DeviceCommunication(ns)"), "140000");
  EXPECT_EQ(value(overlap, 0, 0, "DeviceOverlapped(ns)"), "40000"); // [80,100) and [200,220)
  EXPECT_EQ(value(overlap, 0, 0, "DeviceOverlap(%)"), "28.57");
  EXPECT_EQ(value(overlap, 0, 1, "Process"), "b (20)");
  EXPECT_EQ(value(overlap, 0, 1, "Communication(ns)"), "") << "no calls: none in CSV";
  EXPECT_EQ(value(overlap, 0, 1, "Overlap(%)"), "");
  EXPECT_EQ(value(overlap, 0, 1, "DeviceCommunication(ns)"), "50000");
  EXPECT_EQ(value(overlap, 0, 1, "DeviceOverlapped(ns)"), "0");
  EXPECT_EQ(value(overlap, 0, 1, "Devices"), "1");
}

// A merged report of two captures whose processes have one pid: each
// queue goes with the process of its own input (the merge label).
TEST_F(DeviceOwnerStats, MergedInputsOfOnePidKeepTheirOwners) {
  testing::TestReport report;
  for (const std::string input : {"node0", "node1"}) {
    const std::string label = " [" + input + "]";
    const uint32_t app = report.process("app" + label, 10);
    report.thread(app, "app", 10);
    const uint32_t npu = report.track(PROF_TRACK_DEVICE, 0, "NPU 0" + label, 0);
    const uint32_t queue = report.owned(PROF_TRACK_ENGINE, npu, "Queue 1", 10);
    report.slice(queue, us(0), (input == "node0" ? 100 : 200) * kUs, "matmul", "",
                 PROF_CATEGORY_KERNEL);
  }
  open(report, 2);
  const StatsTable table = one("kernels");
  ASSERT_EQ(table.sections.size(), 3u);
  EXPECT_EQ(table.sections[1].label, "app [node0] (10)");
  EXPECT_EQ(value(table, 1, 0, "Time(ns)"), "100000");
  EXPECT_EQ(table.sections[2].label, "app [node1] (10)");
  EXPECT_EQ(value(table, 2, 0, "Time(ns)"), "200000");
}

} // namespace
} // namespace prof::stats
