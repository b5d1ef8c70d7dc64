// The runtime API: argument checks, streams, events and synchronization.
#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

using namespace gcusim_test;
using namespace std::chrono_literals;

TEST(Runtime, BadPointersAreRefusedNotFollowed) {
  char host[256] = {};
  void *device = nullptr;
  ASSERT_EQ(gcuMalloc(&device, 100), gcuSuccess);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(device) % 64, 0u);
  char *bytes = static_cast<char *>(device);

  EXPECT_EQ(gcuMalloc(nullptr, 100), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMalloc(&device, 0), gcuErrorInvalidValue);
  EXPECT_EQ(gcuFree(host), gcuErrorInvalidValue);
  EXPECT_EQ(gcuFree(bytes + 1), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMemcpyH2D(host, host + 128, 16), gcuErrorInvalidValue); // dst not device
  EXPECT_EQ(gcuMemcpyD2H(host, host + 128, 16), gcuErrorInvalidValue); // src not device
  EXPECT_EQ(gcuMemcpyD2D(bytes, host, 16), gcuErrorInvalidValue);      // src not device
  EXPECT_EQ(gcuMemcpyH2D(bytes + 90, host, 16), gcuErrorInvalidValue); // past the end
  EXPECT_EQ(gcuMemcpyH2D(bytes, nullptr, 16), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMemset(host, 0, 16), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMemset(bytes, 0, 101), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMemcpyH2D(bytes + 84, host, 16), gcuSuccess); // the last 16 bytes
  EXPECT_EQ(gcuMemcpyH2D(bytes, host, 0), gcuSuccess);

  EXPECT_EQ(gcuFree(device), gcuSuccess);
  EXPECT_EQ(gcuFree(device), gcuErrorInvalidValue) << "double free";
  EXPECT_EQ(gcuMemcpyD2H(host, device, 16), gcuErrorInvalidValue) << "freed memory";
  EXPECT_EQ(gcuFree(nullptr), gcuSuccess);
  EXPECT_EQ(gcuMalloc(&device, size_t{1} << 40), gcuErrorMemoryAllocation);
}

TEST(Runtime, BadHandlesAndDevicesAreRefused) {
  int fake = 0;
  auto stream = reinterpret_cast<gcuStream_t>(&fake);
  auto event = reinterpret_cast<gcuEvent_t>(&fake);
  EXPECT_EQ(gcuSetDevice(2), gcuErrorInvalidDevice);
  EXPECT_EQ(gcuSetDevice(-1), gcuErrorInvalidDevice);
  EXPECT_EQ(gcuInit(1), gcuErrorInvalidValue);
  EXPECT_EQ(gcuInit(0), gcuSuccess);
  EXPECT_EQ(gcuStreamSynchronize(stream), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuStreamDestroy(stream), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuStreamDestroy(nullptr), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuLaunchKernel("k", empty_kernel, nullptr, stream), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuLaunchKernel(nullptr, empty_kernel, nullptr, nullptr), gcuErrorInvalidValue);
  EXPECT_EQ(gcuLaunchKernel("k", nullptr, nullptr, nullptr), gcuErrorInvalidValue);
  EXPECT_EQ(gcuEventRecord(event, nullptr), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuEventSynchronize(event), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuEventDestroy(event), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuStreamWaitEvent(nullptr, event), gcuErrorInvalidHandle);
  EXPECT_EQ(gcuGetDeviceCount(nullptr), gcuErrorInvalidValue);
  int count = 0, device = -1;
  EXPECT_EQ(gcuGetDeviceCount(&count), gcuSuccess);
  EXPECT_EQ(count, 2);
  EXPECT_EQ(gcuGetDevice(&device), gcuSuccess);
  EXPECT_EQ(device, 0);
  for (int error = 0; error <= 7; ++error)
    EXPECT_NE(gcuGetErrorString(static_cast<gcuError_t>(error)), nullptr);
  EXPECT_STREQ(gcuGetErrorString(gcuErrorNotReady),
               "gcuErrorNotReady: the work has not finished yet");
}

TEST(Runtime, StreamsRunInOrderAndEventsTimeThem) {
  gcuStream_t stream = nullptr;
  gcuEvent_t start = nullptr, end = nullptr;
  ASSERT_EQ(gcuStreamCreate(&stream), gcuSuccess);
  ASSERT_EQ(gcuEventCreate(&start), gcuSuccess);
  ASSERT_EQ(gcuEventCreate(&end), gcuSuccess);
  float ms = 0;
  EXPECT_EQ(gcuEventElapsedTime(&ms, start, end), gcuErrorInvalidValue) << "never recorded";
  EXPECT_EQ(gcuEventSynchronize(start), gcuSuccess) << "nothing to wait for";

  int sleep_ms = 15;
  ASSERT_EQ(gcuEventRecord(start, stream), gcuSuccess);
  ASSERT_EQ(gcuLaunchKernel("sleep15", sleep_kernel, &sleep_ms, stream), gcuSuccess);
  ASSERT_EQ(gcuEventRecord(end, stream), gcuSuccess);
  EXPECT_EQ(gcuEventElapsedTime(&ms, start, end), gcuErrorNotReady);
  ASSERT_EQ(gcuEventSynchronize(end), gcuSuccess);
  ASSERT_EQ(gcuEventElapsedTime(&ms, start, end), gcuSuccess);
  EXPECT_GE(ms, 15.0f);
  EXPECT_LT(ms, 100.0f);
  EXPECT_EQ(gcuEventDestroy(start), gcuSuccess);
  EXPECT_EQ(gcuEventDestroy(end), gcuSuccess);
  EXPECT_EQ(gcuStreamDestroy(stream), gcuSuccess);
  EXPECT_EQ(gcuStreamSynchronize(stream), gcuErrorInvalidHandle) << "destroyed";
}

namespace {
struct Stamp {
  int sleep_ms;
  std::atomic<int64_t> ended_ns{0};
  std::atomic<int64_t> started_ns{0};
};
void stamped_kernel(void *raw, unsigned sip, unsigned) {
  auto *stamp = static_cast<Stamp *>(raw);
  auto now = [] { return std::chrono::steady_clock::now().time_since_epoch().count(); };
  if (sip == 0) stamp->started_ns = now();
  std::this_thread::sleep_for(std::chrono::milliseconds(stamp->sleep_ms));
  if (sip == 0) stamp->ended_ns = now();
}
} // namespace

TEST(Runtime, StreamWaitEventOrdersStreamsAndRecordsTsActivities) {
  Collector collector;
  collector.subscribe(all_instances(0, "TS", "TS Record Stream") +
                          all_instances(0, "TS", "TS Wait Stream") +
                          all_instances(0, "TS", "TS Memory Wait"),
                      all_api_functions());
  gcuStream_t producer = nullptr, consumer = nullptr;
  gcuEvent_t ready = nullptr;
  ASSERT_EQ(gcuStreamCreate(&producer), gcuSuccess);
  ASSERT_EQ(gcuStreamCreate(&consumer), gcuSuccess);
  ASSERT_EQ(gcuEventCreate(&ready), gcuSuccess);
  Stamp slow{30}, after{0};
  ASSERT_EQ(gcuLaunchKernel("slow", stamped_kernel, &slow, producer), gcuSuccess);
  ASSERT_EQ(gcuEventRecord(ready, producer), gcuSuccess);
  ASSERT_EQ(gcuStreamWaitEvent(consumer, ready), gcuSuccess);
  ASSERT_EQ(gcuLaunchKernel("after", stamped_kernel, &after, consumer), gcuSuccess);
  ASSERT_EQ(gcuStreamSynchronize(consumer), gcuSuccess);
  EXPECT_GE(after.started_ns.load(), slow.ended_ns.load());
  ASSERT_EQ(gcuDeviceSynchronize(), gcuSuccess);
  ASSERT_EQ(gcuStreamDestroy(producer), gcuSuccess);
  ASSERT_EQ(gcuStreamDestroy(consumer), gcuSuccess);
  ASSERT_EQ(gcuEventDestroy(ready), gcuSuccess);
  collector.flush();

  auto api_id = [&](const char *function) {
    for (const prof_gcu_api_record &api : collector.apis())
      if (std::string(topology().api_domains[0].functions[api.function]) == function)
        return api.correlation_id;
    return uint64_t{0};
  };
  std::vector<prof_gcu_record> records = collector.records_named("TS Record Stream");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].correlation_id, api_id("gcuEventRecord"));
  std::vector<prof_gcu_record> waits = collector.records_named("TS Wait Stream");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(waits[0].correlation_id, api_id("gcuStreamWaitEvent"));
  EXPECT_GT(ticks_to_seconds(0, waits[0].end - waits[0].start), 0.015);
  EXPECT_NE(waits[0].stream, records[0].stream);
  std::vector<prof_gcu_record> syncs = collector.records_named("TS Memory Wait");
  ASSERT_EQ(syncs.size(), 2u); // the stream synchronize and the device synchronize
  EXPECT_EQ(syncs[0].correlation_id, api_id("gcuStreamSynchronize"));
  EXPECT_EQ(syncs[0].stream, waits[0].stream);
  EXPECT_EQ(syncs[1].correlation_id, api_id("gcuDeviceSynchronize"));
}

TEST(Runtime, AsyncWorkOnManyStreamsAndDevicesFinishes) {
  const size_t count = 1 << 16;
  std::vector<float> host(count, 1.5f), back(count, 0.0f);
  std::vector<gcuStream_t> streams;
  std::vector<void *> buffers;
  for (int device = 0; device < 2; ++device) {
    ASSERT_EQ(gcuSetDevice(device), gcuSuccess);
    for (int s = 0; s < 3; ++s) {
      gcuStream_t stream = nullptr;
      void *a = nullptr, *b = nullptr;
      ASSERT_EQ(gcuStreamCreate(&stream), gcuSuccess);
      ASSERT_EQ(gcuMalloc(&a, count * sizeof(float)), gcuSuccess);
      ASSERT_EQ(gcuMalloc(&b, count * sizeof(float)), gcuSuccess);
      EXPECT_EQ(gcuMemsetAsync(b, 0, count * sizeof(float), stream), gcuSuccess);
      EXPECT_EQ(gcuMemcpyH2DAsync(a, host.data(), count * sizeof(float), stream), gcuSuccess);
      EXPECT_EQ(gcuMemcpyD2DAsync(b, a, count * sizeof(float), stream), gcuSuccess);
      EXPECT_EQ(gcuLaunchKernel("k", empty_kernel, nullptr, stream), gcuSuccess);
      streams.push_back(stream);
      buffers.push_back(a);
      buffers.push_back(b);
    }
    EXPECT_EQ(gcuDeviceSynchronize(), gcuSuccess);
  }
  ASSERT_EQ(gcuSetDevice(0), gcuSuccess);
  for (size_t i = 1; i < buffers.size(); i += 2) {
    ASSERT_EQ(gcuMemcpyD2H(back.data(), buffers[i], count * sizeof(float)), gcuSuccess);
    EXPECT_EQ(back, host);
  }
  for (gcuStream_t stream : streams)
    EXPECT_EQ(gcuStreamDestroy(stream), gcuSuccess);
  for (void *buffer : buffers)
    EXPECT_EQ(gcuFree(buffer), gcuSuccess);
}

TEST(Runtime, ProfilerStartAndStopSetAFlag) {
  EXPECT_EQ(gcusimProfilerActive(), 0);
  EXPECT_EQ(gcuProfilerStart(), gcuSuccess);
  EXPECT_EQ(gcusimProfilerActive(), 1);
  EXPECT_EQ(gcuProfilerStop(), gcuSuccess);
  EXPECT_EQ(gcusimProfilerActive(), 0);
}

TEST(Runtime, ExitWithWorkInFlightNeitherHangsNorCrashes) {
  auto start = std::chrono::steady_clock::now();
  ChildResult child = run_test_in_child("InChild.ExitWithWorkInFlight", {});
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("exiting with work in flight"), std::string::npos) << child.output;
  EXPECT_NE(child.output.find("flushed at exit"), std::string::npos) << child.output;
  // Exit gives queued work a second, not the ten the endless kernel wants.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

namespace {
uint32_t exit_capture = 0;
}

TEST(InChild, ExitWithWorkInFlight) {
  if (!in_child()) GTEST_SKIP() << "run by Runtime.ExitWithWorkInFlightNeitherHangsNorCrashes";
  // Like a profiler's agent: a capture that is still open at exit and flushed from atexit.
  static auto *collector = new Collector; // outlives the exit path
  collector->subscribe(everything(0) + everything(1), all_api_functions());
  exit_capture = collector->handle();
  std::atexit([] {
    driver().flush(exit_capture);
    std::printf("flushed at exit\n");
    std::fflush(stdout);
  });
  static int sleep_ms = 10000;
  // Heap memory stays valid during exit (a static vector made now would be
  // destroyed before the runtime's exit handler, under a copy still running).
  static auto &host = *new std::vector<char>(8 << 20);
  for (int device = 0; device < 2; ++device) {
    ASSERT_EQ(gcuSetDevice(device), gcuSuccess);
    gcuStream_t stream = nullptr;
    void *memory = nullptr;
    ASSERT_EQ(gcuStreamCreate(&stream), gcuSuccess);
    ASSERT_EQ(gcuMalloc(&memory, host.size()), gcuSuccess);
    ASSERT_EQ(gcuLaunchKernel("endless", sleep_kernel, &sleep_ms, stream), gcuSuccess);
    ASSERT_EQ(gcuLaunchKernel("short", empty_kernel, nullptr, nullptr), gcuSuccess);
    ASSERT_EQ(gcuMemcpyH2DAsync(memory, host.data(), host.size(), nullptr), gcuSuccess);
  }
  std::this_thread::sleep_for(5ms);
  std::printf("exiting with work in flight\n");
  std::fflush(stdout);
  std::exit(0);
}
