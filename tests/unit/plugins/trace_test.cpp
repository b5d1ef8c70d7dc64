// The trace exporter on synthetic events: start-time order across batches,
// relative start times, instants, the gcu scope and the exact text.
#include "trace_exporter.hpp"
#include <prof/testing/fake_export_host.hpp>

#include <gtest/gtest.h>

namespace prof::trace {
namespace {

using prof::testing::FakeExportHost;
using Lines = std::vector<std::string>;

class TraceTest : public ::testing::Test {
protected:
  void SetUp() override {
    gcu = fake.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    sip = fake.add_track(PROF_TRACK_ENGINE, "SIP 0", gcu, 0, 0, 0);
    thread = fake.add_track(PROF_TRACK_THREAD, "main");
  }

  Lines run(const std::vector<std::vector<prof_event>> &batches, const std::string &scope = "") {
    if (!scope.empty()) fake.set_option("scope", scope);
    TraceExporter exporter(fake.host());
    EXPECT_TRUE(exporter.begin());
    for (const auto &batch : batches)
      EXPECT_TRUE(exporter.consume(batch.data(), batch.size()));
    EXPECT_TRUE(exporter.end());
    return fake.printed();
  }

  std::vector<std::vector<prof_event>> batches() {
    const uint64_t t0 = 1'000'000'000;
    return {{fake.slice(sip, "elementwise_fusion_dtu", t0 + 16130, 16380),
             fake.slice(sip, "common20_copy", t0 + 33020, 4610)},
            {fake.slice(thread, "topsLaunchKernel", t0 + 16130, 2000, "api"),
             fake.instant(thread, "checkpoint", t0 + 20000),
             fake.counter(fake.add_track(PROF_TRACK_COUNTER, "c", 0, 0, 0, -1, "%"), t0, 1)},
            {fake.slice(sip, "common_rng_uniform", t0, 15620)}};
  }

  FakeExportHost fake;
  prof_track_id gcu, sip, thread;
};

TEST_F(TraceTest, SortsByStartAndPrintsTrackColumn) {
  const Lines expected{
      "======== Profiling result:",
      "  Start  Duration  Name                    Track",
      " 0.00ns   15.62us  common_rng_uniform      SIP 0",
      "16.13us   16.38us  elementwise_fusion_dtu  SIP 0",
      "16.13us    2.00us  topsLaunchKernel        main",
      "20.00us         -  checkpoint              main",
      "33.02us    4.61us  common20_copy           SIP 0",
  };
  EXPECT_EQ(run(batches()), expected);
}

TEST_F(TraceTest, GcuScopeKeepsDeviceActivitiesInTopsprofColumns) {
  const Lines expected{
      "======== Profiling result:",
      "  Start  Duration  Name",
      " 0.00ns   15.62us  common_rng_uniform",
      "16.13us   16.38us  elementwise_fusion_dtu",
      "33.02us    4.61us  common20_copy",
  };
  EXPECT_EQ(run(batches(), "gcu"), expected);
}

TEST_F(TraceTest, ArgumentsFollowTheName) {
  const uint64_t args = fake.add_args({fake.uint_arg("bytes", 4096), fake.string_arg("dir", "in")});
  const Lines expected{
      "======== Profiling result:",
      " Start  Duration  Name",
      "0.00ns    1.00us  Memcpy HtoD (bytes=4096, dir=in)",
      "2.00us    1.00us  conv",
  };
  EXPECT_EQ(run({{FakeExportHost::with_args(fake.slice(sip, "Memcpy HtoD", 0, 1000), args,
                                            PROF_CATEGORY_MEMCPY_HTOD),
                  fake.slice(sip, "conv", 2000, 1000)}},
                "gcu"),
            expected);
}

TEST_F(TraceTest, EmptyTraceSaysSo) {
  EXPECT_EQ(run({}), Lines{"======== Profiling result: no activities were collected"});
  fake.set_dropped(7);
  const Lines printed = run({{fake.slice(thread, "x", 0, 1)}}, "gcu");
  EXPECT_EQ(printed[1], "======== Profiling result: no GCU activities were collected");
  EXPECT_EQ(printed[2],
            "Warning: 7 events were dropped because rings were full; raise --host-ringbuffer-size");
}

TEST_F(TraceTest, UnknownScopeFailsWithAReason) {
  fake.set_option("scope", "cpu");
  TraceExporter exporter(fake.host());
  EXPECT_FALSE(exporter.begin());
  ASSERT_EQ(fake.errors().size(), 1u);
  EXPECT_EQ(fake.errors()[0], "trace: unknown scope 'cpu' (choose all or gcu)");
}

} // namespace
} // namespace prof::trace
