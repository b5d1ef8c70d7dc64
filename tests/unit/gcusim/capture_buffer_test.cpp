// Capture buffers: device buffers drained by the driver's DMA thread, host
// rings delivered at the watermark or the flush period, drops counted.
#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>

using namespace gcusim_test;
using namespace std::chrono_literals;

namespace {

void launch_empty_kernels(int count) {
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(gcuLaunchKernel("tiny", empty_kernel, nullptr, nullptr), gcuSuccess);
  ASSERT_EQ(gcuDeviceSynchronize(), gcuSuccess);
}

/// Waits up to `limit` for `done`.
template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

} // namespace

TEST(CaptureBuffers, FullDeviceBufferDropsAndCountsThem) {
  ChildResult child =
      run_test_in_child("InChild.FullDeviceBufferDrops", {"GCUSIM_DMA_INTERVAL_MS=100000"});
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;
}

// Subscribes before any runtime call; the DMA thread never drains on its own.
TEST(InChild, FullDeviceBufferDrops) {
  if (!in_child()) GTEST_SKIP() << "run by CaptureBuffers.FullDeviceBufferDropsAndCountsThem";
  Collector collector;
  prof_gcu_capture_config config = collector.config(everything(0));
  config.device_buffer_bytes = 1 << 20;
  collector.subscribe(config);
  // 35 records a kernel: 600 kernels overflow the 14563 records of 1 MB.
  launch_empty_kernels(600);
  std::this_thread::sleep_for(20ms);
  prof_gcu_buffer_stats before = collector.stats(0);
  EXPECT_EQ(before.delivered, 0u) << "nothing drained before the DMA interval";
  EXPECT_GT(before.dropped, 0u);
  EXPECT_EQ(before.produced - before.dropped, (1u << 20) / sizeof(prof_gcu_record));

  collector.flush();
  prof_gcu_buffer_stats after = collector.stats(0);
  EXPECT_EQ(after.produced, 600u * 35u + 1u); // and the synchronize's TS Memory Wait
  EXPECT_EQ(after.produced, after.delivered + after.dropped);
  EXPECT_EQ(after.delivered, (1u << 20) / sizeof(prof_gcu_record));
  EXPECT_EQ(collector.records().size(), after.delivered);
  prof_gcu_buffer_stats other = collector.stats(1);
  EXPECT_EQ(other.produced, 0u);
}

TEST(CaptureBuffers, DeviceBufferDrainsInTheBackground) {
  Collector collector;
  prof_gcu_capture_config config = collector.config(all_instances(0, "SIP", "SIP Busy"));
  config.watermark_bytes = 72; // deliver whatever the DMA moved
  collector.subscribe(config);
  launch_empty_kernels(5);
  EXPECT_TRUE(eventually([&] { return collector.records().size() == 30; }, 2000ms))
      << collector.records().size() << " records without a flush";
}

TEST(CaptureBuffers, FullHostRingDropsUntilDelivered) {
  // on_records blocks until released, so the ring cannot empty meanwhile.
  struct Gate {
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
    size_t delivered = 0;
  } gate;
  prof_gcu_capture_config config{};
  std::vector<prof_gcu_item> items = all_instances(0, "SIP", "SIP Busy");
  config.struct_size = sizeof(config);
  config.buffer = PROF_GCU_BUFFER_HOST;
  config.host_ring_bytes = 100 * sizeof(prof_gcu_record);
  config.watermark_bytes = 10 * sizeof(prof_gcu_record);
  config.items = items.data();
  config.item_count = static_cast<uint32_t>(items.size());
  config.user = &gate;
  config.collecting = 1;
  config.on_records = [](void *user, const prof_gcu_record *, size_t count) {
    auto *g = static_cast<Gate *>(user);
    std::unique_lock lock(g->mutex);
    g->opened.wait(lock, [&] { return g->open; });
    g->delivered += count;
  };
  uint32_t handle = 0;
  char error[256] = "";
  ASSERT_EQ(driver().subscribe(&config, &handle, error, sizeof(error)), 0) << error;
  launch_empty_kernels(50); // 300 records into a ring of 100
  prof_gcu_buffer_stats stats{sizeof(stats)};
  ASSERT_EQ(driver().stats(handle, 0, &stats), 0);
  EXPECT_EQ(stats.produced, 300u);
  EXPECT_EQ(stats.delivered, 0u);
  EXPECT_EQ(stats.dropped, 200u);
  {
    std::lock_guard lock(gate.mutex);
    gate.open = true;
  }
  gate.opened.notify_all();
  driver().flush(handle);
  ASSERT_EQ(driver().stats(handle, 0, &stats), 0);
  EXPECT_EQ(stats.delivered, 100u);
  EXPECT_EQ(stats.produced, stats.delivered + stats.dropped);
  driver().unsubscribe(handle);
  std::lock_guard lock(gate.mutex);
  EXPECT_EQ(gate.delivered, 100u);
}

TEST(CaptureBuffers, HostRingIsDeliveredAtTheWatermark) {
  Collector collector;
  prof_gcu_capture_config config = collector.config(all_instances(0, "SIP", "SIP Busy"));
  config.buffer = PROF_GCU_BUFFER_HOST;
  config.host_ring_bytes = 1000 * sizeof(prof_gcu_record);
  config.watermark_bytes = 12 * sizeof(prof_gcu_record);
  collector.subscribe(config);
  launch_empty_kernels(2); // 12 records: at the watermark
  EXPECT_TRUE(eventually([&] { return collector.records().size() == 12; }, 2000ms));
  launch_empty_kernels(1); // 6 more stay below it
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(collector.records().size(), 12u);
  collector.flush();
  EXPECT_EQ(collector.records().size(), 18u);
}

TEST(CaptureBuffers, FlushPeriodDeliversWhatIsBuffered) {
  Collector collector;
  prof_gcu_capture_config config = collector.config(all_instances(0, "General", "Operator"));
  config.buffer = PROF_GCU_BUFFER_HOST;
  config.flush_period_ms = 10;
  collector.subscribe(config);
  launch_empty_kernels(1);
  EXPECT_TRUE(eventually([&] { return collector.records().size() == 1; }, 2000ms));
}

TEST(CaptureBuffers, StatsRefuseUnknownHandlesAndDevices) {
  Collector collector;
  collector.subscribe(all_instances(0, "General", "Operator"));
  prof_gcu_buffer_stats stats{sizeof(stats)};
  EXPECT_EQ(driver().stats(collector.handle(), 1, &stats), 0);
  EXPECT_NE(driver().stats(collector.handle(), 2, &stats), 0);
  EXPECT_NE(driver().stats(collector.handle() + 1000, 0, &stats), 0);
  stats.struct_size = 4;
  EXPECT_NE(driver().stats(collector.handle(), 0, &stats), 0);
  // Unknown handles are ignored by the others.
  driver().flush(12345);
  driver().set_collecting(12345, 1);
  driver().unsubscribe(12345);
}
