// Real time: copies last as long as the modelled bandwidth says, operators
// as long as their bodies, and the device clock runs at its rate and drift.
#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <vector>

using namespace gcusim_test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

double pair_slope(uint32_t device, std::chrono::milliseconds apart, uint64_t *first_ticks) {
  uint64_t host1 = 0, ticks1 = 0, host2 = 0, ticks2 = 0;
  EXPECT_EQ(driver().clock_pair(device, &host1, &ticks1), 0);
  std::this_thread::sleep_for(apart);
  EXPECT_EQ(driver().clock_pair(device, &host2, &ticks2), 0);
  if (first_ticks != nullptr) *first_ticks = ticks1;
  return static_cast<double>(ticks2 - ticks1) / static_cast<double>(host2 - host1);
}

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

/// Window of host times in which the bodies of one launch ran.
struct BodyWindow {
  std::atomic<uint64_t> first{UINT64_MAX};
  std::atomic<uint64_t> last{0};
  int sleep_ms = 20;
};

void timed_sleep_kernel(void *raw, unsigned, unsigned) {
  auto *window = static_cast<BodyWindow *>(raw);
  uint64_t start = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(window->sleep_ms));
  uint64_t end = monotonic_ns();
  uint64_t seen = window->first.load();
  while (start < seen && !window->first.compare_exchange_weak(seen, start)) {
  }
  seen = window->last.load();
  while (end > seen && !window->last.compare_exchange_weak(seen, end)) {
  }
}

void spin_kernel(void *, unsigned, unsigned) {
  timespec start;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  volatile double sink = 0;
  for (;;) {
    for (int i = 0; i < 10000; ++i)
      sink = sink + std::sqrt(static_cast<double>(i));
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    if ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) > 3000000L) break;
  }
}

} // namespace

TEST(Timing, MemcpyMovesTheBytesAtTheModelledBandwidth) {
  Collector collector;
  collector.subscribe(all_instances(0, "SDMA", "DMA VC Execution"));
  const size_t bytes = 32u << 20; // 2.1 ms at 16 GB/s
  std::vector<unsigned char> source(bytes), back(bytes, 0);
  for (size_t i = 0; i < bytes; ++i)
    source[i] = static_cast<unsigned char>(i * 31 + 7);
  void *device = nullptr;
  ASSERT_EQ(gcuMalloc(&device, bytes), gcuSuccess);
  const double minimum_s = static_cast<double>(bytes) / 16e9;

  auto start = Clock::now();
  ASSERT_EQ(gcuMemcpyH2D(device, source.data(), bytes), gcuSuccess);
  std::chrono::duration<double> wall = Clock::now() - start;
  EXPECT_GE(wall.count(), minimum_s);
  EXPECT_EQ(std::memcmp(device, source.data(), bytes), 0) << "device memory is host memory";
  ASSERT_EQ(gcuMemcpyD2H(back.data(), device, bytes), gcuSuccess);
  EXPECT_EQ(back, source);
  ASSERT_EQ(gcuFree(device), gcuSuccess);

  collector.flush();
  std::vector<prof_gcu_record> copies = collector.records();
  ASSERT_EQ(copies.size(), 2u);
  for (const prof_gcu_record &copy : copies) {
    EXPECT_EQ(copy.bytes, bytes);
    double seconds = ticks_to_seconds(0, copy.end - copy.start + 1); // a tick lost to rounding
    EXPECT_GE(seconds, minimum_s);
    EXPECT_LT(seconds, minimum_s + 1.0); // sanitizers slow the memcpy down
  }
}

TEST(Timing, OperatorLastsAsLongAsItsBody) {
  Collector collector;
  collector.subscribe(all_instances(1, "General", "Operator") +
                      all_instances(1, "SIPPMC", "sip_busy_with_wait") +
                      all_instances(1, "SIPPMC", "sip_busy_without_wait") +
                      all_instances(1, "SIPPMC", "sip_stall_cycles"));
  BodyWindow window;
  ASSERT_EQ(gcuSetDevice(1), gcuSuccess);
  ASSERT_EQ(gcuLaunchKernel("sleepy", timed_sleep_kernel, &window, nullptr), gcuSuccess);
  ASSERT_EQ(gcuDeviceSynchronize(), gcuSuccess);
  ASSERT_EQ(gcuSetDevice(0), gcuSuccess);
  collector.flush();

  std::vector<prof_gcu_record> operators = collector.records_named("Operator");
  ASSERT_EQ(operators.size(), 1u);
  double body_s = static_cast<double>(window.last - window.first) / 1e9;
  double operator_s = ticks_to_seconds(1, operators[0].end - operators[0].start);
  EXPECT_GE(body_s, 0.020);
  EXPECT_NEAR(operator_s, body_s, 0.1 * body_s);

  // Sleeping SIPs are busy with wait, hardly busy without it.
  std::vector<prof_gcu_record> with_wait = collector.records_named("sip_busy_with_wait");
  std::vector<prof_gcu_record> without_wait = collector.records_named("sip_busy_without_wait");
  std::vector<prof_gcu_record> stalls = collector.records_named("sip_stall_cycles");
  ASSERT_EQ(with_wait.size(), 6u);
  ASSERT_EQ(without_wait.size(), 6u);
  ASSERT_EQ(stalls.size(), 6u);
  for (size_t s = 0; s < 6; ++s) {
    EXPECT_EQ(with_wait[s].start, operators[0].start);
    EXPECT_EQ(with_wait[s].end, operators[0].end);
    EXPECT_EQ(with_wait[s].kind, PROF_GCU_RECORD_COUNTER);
    EXPECT_GE(ticks_to_seconds(1, with_wait[s].value), 0.019);
    EXPECT_LT(without_wait[s].value, with_wait[s].value / 4);
    EXPECT_EQ(stalls[s].value, with_wait[s].value - without_wait[s].value);
  }
}

TEST(Timing, ComputingSipsCountCpuTimeAndInstructions) {
  Collector collector;
  collector.subscribe(all_instances(0, "SIPPMC", "sip_busy_with_wait") +
                      all_instances(0, "SIPPMC", "sip_busy_without_wait") +
                      all_instances(0, "SIPPMC", "sip_instructions"));
  uint64_t busy_before = 0, busy_after = 0;
  uint32_t units = 0;
  ASSERT_EQ(driver().busy_ticks(0, -1, 0, &busy_before, &units), 0);
  ASSERT_EQ(gcuLaunchKernel("spin", spin_kernel, nullptr, nullptr), gcuSuccess);
  ASSERT_EQ(gcuStreamSynchronize(nullptr), gcuSuccess);
  ASSERT_EQ(driver().busy_ticks(0, -1, 0, &busy_after, &units), 0);
  collector.flush();

  std::vector<prof_gcu_record> with_wait = collector.records_named("sip_busy_with_wait");
  std::vector<prof_gcu_record> without_wait = collector.records_named("sip_busy_without_wait");
  std::vector<prof_gcu_record> instructions = collector.records_named("sip_instructions");
  ASSERT_EQ(without_wait.size(), 6u);
  ASSERT_EQ(instructions.size(), 6u);
  for (size_t s = 0; s < 6; ++s) {
    EXPECT_GE(ticks_to_seconds(0, without_wait[s].value), 0.0029); // 3 ms of CPU each
    EXPECT_LE(without_wait[s].value, with_wait[s].value);
    EXPECT_EQ(instructions[s].value, without_wait[s].value); // one per busy tick
  }
  EXPECT_GE(ticks_to_seconds(0, busy_after - busy_before), 6 * 0.0029);
}

TEST(Timing, MemsetKeepsSipLiteBusy) {
  uint64_t before = 0, after = 0;
  uint32_t units = 0;
  ASSERT_EQ(driver().busy_ticks(0, 1, 0, &before, &units), 0);
  void *device = nullptr;
  ASSERT_EQ(gcuMalloc(&device, 16u << 20), gcuSuccess);
  ASSERT_EQ(gcuMemset(device, 0xAB, 16u << 20), gcuSuccess);
  EXPECT_EQ(static_cast<unsigned char *>(device)[12345], 0xAB);
  ASSERT_EQ(driver().busy_ticks(0, 1, 0, &after, &units), 0);
  EXPECT_EQ(units, 1u);
  EXPECT_GE(ticks_to_seconds(0, after - before), (16u << 20) / 16e9 * 0.99);
  EXPECT_EQ(gcuFree(device), gcuSuccess);
}

TEST(Timing, DefaultClocksHaveTheirOwnOffsets) {
  EXPECT_EQ(driver().clock_frequency(0), 1.25e9);
  EXPECT_EQ(driver().clock_frequency(1), 1.25e9);
  EXPECT_EQ(driver().clock_frequency(2), 0.0);
  uint64_t host = 0, ticks0 = 0, ticks1 = 0;
  ASSERT_EQ(driver().clock_pair(0, &host, &ticks0), 0);
  ASSERT_EQ(driver().clock_pair(1, &host, &ticks1), 0);
  EXPECT_GE(ticks0, 1000000000000ull);
  EXPECT_LT(ticks0, 1500000000000ull); // 400 s of run time
  EXPECT_GE(ticks1, 2000000000000ull);
  EXPECT_LT(ticks1, 2500000000000ull);
  EXPECT_NEAR(pair_slope(0, 50ms, nullptr), 1.25 * (1 + 25e-6), 1e-3); // pairs off by 10 us at most
  EXPECT_NE(driver().clock_pair(2, &host, &ticks0), 0);
  EXPECT_NE(driver().clock_pair(0, nullptr, &ticks0), 0);
}

TEST(Timing, ClockPairFollowsTheConfiguredDrift) {
  for (const char *drift : {"GCUSIM_CLOCK_DRIFT_PPM=2000", "GCUSIM_CLOCK_DRIFT_PPM=-3000"}) {
    ChildResult child = run_test_in_child(
        "InChild.ConfiguredClock", {"GCUSIM_CLOCK_HZ=1e9", drift, "GCUSIM_CLOCK_OFFSET=5000000"});
    EXPECT_EQ(child.exit_code, 0) << drift << "\n" << child.output;
    EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;
  }
}

TEST(InChild, ConfiguredClock) {
  if (!in_child()) GTEST_SKIP() << "run by Timing.ClockPairFollowsTheConfiguredDrift";
  double drift_ppm = std::atof(std::getenv("GCUSIM_CLOCK_DRIFT_PPM"));
  EXPECT_EQ(driver().clock_frequency(0), 1e9);
  for (uint32_t device = 0; device < 2; ++device) {
    uint64_t first_ticks = 0;
    // Each pair may be off by half the 20 us bracket the simulator accepts:
    // over 200 ms, at most 100 ppm, a twentieth of the drifts tried.
    double slope = pair_slope(device, 200ms, &first_ticks);
    EXPECT_NEAR(slope, 1.0 + drift_ppm * 1e-6, 2e-4) << "device " << device;
    EXPECT_GE(first_ticks, 5000000u); // the offset, as given, on every device
    EXPECT_LT(first_ticks, 5000000u + 1000000000u);
  }
}
