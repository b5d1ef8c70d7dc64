// CUPTI activity records, laid out byte for byte with the structs of the
// installed CUPTI headers, become the events the vendor-neutral model
// expects: tracks, names, categories, arguments, flows and memory counters.
#include "activity_translator.hpp"

#include <prof/correlation.hpp>
#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace prof::cuda {
namespace {

using Fake = prof::testing::FakeSourceHost;

class ActivityTranslation : public ::testing::Test {
protected:
  // Records start zeroed, as CUPTI's are before it fills the fields it knows.
  template <class T> static T record(CUpti_ActivityKind kind) {
    T r;
    std::memset(&r, 0, sizeof r);
    r.kind = kind;
    return r;
  }
  void feed(const auto &r) { translator_.translate(reinterpret_cast<const CUpti_Activity &>(r)); }

  Fake::Slice slice(const std::string &name) const {
    for (const Fake::Slice &s : host_.slices())
      if (s.name == name) return s;
    ADD_FAILURE() << "no slice " << name;
    return {};
  }
  std::string path(prof_track_id id) const {
    std::string text;
    while (id != 0) {
      const Fake::Track t = host_.track(id);
      text = t.name + (text.empty() ? "" : " > ") + text;
      id = t.parent;
    }
    return text;
  }

  Fake host_{0, prof::testing::HostAbi::current};
  Host view_{host_.api(), &host_};
  CudaTracks tracks_{view_, 4321};
  ActivityTranslator translator_{view_, tracks_,
                                 [](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
                                   if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 211)
                                     return std::string("cudaLaunchKernel_v7000");
                                   if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 20)
                                     return std::string("cudaMalloc_v3020");
                                   return std::string();
                                 },
                                 4321};
};

TEST_F(ActivityTranslation, KernelIsDemangledOnItsStreamWithItsLaunchShape) {
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "_Z6vecAddPKfS0_Pfi";
  k.start = 1000;
  k.end = 1500;
  k.deviceId = 1;
  k.contextId = 3;
  k.streamId = 7;
  k.gridX = 256;
  k.gridY = 2;
  k.gridZ = 1;
  k.blockX = 128;
  k.blockY = 1;
  k.blockZ = 1;
  k.registersPerThread = 32;
  k.staticSharedMemory = 1024;
  k.dynamicSharedMemory = 2048;
  k.correlationId = 99;
  k.graphNodeId = 0;
  feed(k);
  const Fake::Slice s = slice("vecAdd(float const*, float const*, float*, int)");
  EXPECT_EQ(s.begin, 1000u);
  EXPECT_EQ(s.duration, 500u);
  EXPECT_EQ(s.kind, PROF_CATEGORY_KERNEL);
  EXPECT_EQ(s.category, "CUDA kernel");
  EXPECT_EQ(s.correlation, session_correlation(4321, 99));
  EXPECT_EQ(s.args.at("grid"), "256x2x1");
  EXPECT_EQ(s.args.at("block"), "128x1x1");
  EXPECT_EQ(s.args.at("registers_per_thread"), "32");
  EXPECT_EQ(s.args.at("static_shared_memory"), "1024");
  EXPECT_EQ(s.args.at("dynamic_shared_memory"), "2048");
  EXPECT_EQ(s.args.at("stream"), "7");
  EXPECT_EQ(s.args.at("context"), "3");
  EXPECT_EQ(s.args.at("device"), "1");
  EXPECT_EQ(s.args.count("graph_node"), 0u);
  EXPECT_EQ(path(s.track), "GPU 1 > Stream 7");
  EXPECT_EQ(host_.track(s.track).kind, PROF_TRACK_ENGINE);
  EXPECT_EQ(host_.track(host_.track(s.track).parent).kind, PROF_TRACK_DEVICE);
  EXPECT_EQ(host_.track(host_.track(s.track).parent).index, 1);
}

// ABI 1.10: CUPTI reports this process's work, so its streams, waits,
// memory rows and counters are its own; the device and NVML's counters of
// it are every process's.
TEST_F(ActivityTranslation, StreamsAreTheProcesssAndTheDeviceIsShared) {
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "kernel";
  k.start = 1000;
  k.end = 1500;
  k.streamId = 7;
  k.correlationId = 99;
  feed(k);
  const Fake::Track stream = host_.track(slice("kernel").track);
  EXPECT_EQ(stream.pid, 4321);
  EXPECT_EQ(stream.flags, 0u);
  const Fake::Track device = host_.track(stream.parent);
  EXPECT_EQ(device.pid, 0);
  EXPECT_EQ(device.flags, PROF_TRACK_SHARED);
  EXPECT_EQ(host_.track(tracks_.sync(0, 7)).pid, 4321);
  EXPECT_EQ(host_.track(tracks_.memory(0)).pid, 4321);
  EXPECT_EQ(host_.track(tracks_.counter(0, PROF_MEMORY_USED_TRACK, "bytes")).pid, 4321);
  const Fake::Track clock = host_.track(tracks_.device_counter(0, "SM clock", "MHz"));
  EXPECT_EQ(clock.pid, 0);
  EXPECT_EQ(clock.flags, PROF_TRACK_SHARED);
  EXPECT_NE(tracks_.device_counter(0, "Memory used", "bytes"),
            tracks_.counter(0, "Memory used", "bytes"))
      << "the device's counter is not the process's of the same name";
}

TEST_F(ActivityTranslation, GraphKernelNamesItsGraphNode) {
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "plain_c_kernel";
  k.end = 10;
  k.graphId = 4;
  k.graphNodeId = 0x100000005;
  feed(k);
  const Fake::Slice s = slice("plain_c_kernel");
  EXPECT_EQ(s.args.at("graph"), "4");
  EXPECT_EQ(s.args.at("graph_node"), std::to_string(0x100000005));
}

TEST_F(ActivityTranslation, CopiesTakeTheirDirectionAndMemoryKinds) {
  struct Case {
    CUpti_ActivityMemcpyKind kind;
    prof_category category;
    const char *name;
  };
  const Case cases[] = {
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, PROF_CATEGORY_MEMCPY_HTOD, "Memcpy HtoD"},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, PROF_CATEGORY_MEMCPY_DTOH, "Memcpy DtoH"},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, PROF_CATEGORY_MEMCPY_DTOD, "Memcpy DtoD"},
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, PROF_CATEGORY_MEMCPY, "Memcpy"},
  };
  uint64_t ts = 0;
  for (const Case &c : cases) {
    auto m = record<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    m.copyKind = static_cast<uint8_t>(c.kind);
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = 4096;
    m.start = ts;
    m.end = ts + 5;
    m.streamId = 13;
    ts += 10;
    feed(m);
    const Fake::Slice s = slice(c.name);
    EXPECT_EQ(s.kind, c.category) << c.name;
    EXPECT_EQ(s.args.at("bytes"), "4096");
    EXPECT_EQ(s.args.at("src_kind"), "pinned");
    EXPECT_EQ(s.args.at("dst_kind"), "device");
    EXPECT_EQ(path(s.track), "GPU 0 > Stream 13");
  }
  EXPECT_EQ(copy_category(CUPTI_ACTIVITY_MEMCPY_KIND_PTOP), PROF_CATEGORY_MEMCPY_PTOP);
  EXPECT_EQ(copy_category(CUPTI_ACTIVITY_MEMCPY_KIND_ATOH), PROF_CATEGORY_MEMCPY_DTOH);
}

TEST_F(ActivityTranslation, PeerCopyNamesBothDevices) {
  auto m = record<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  m.bytes = 1 << 20;
  m.start = 5;
  m.end = 9;
  m.deviceId = 0;
  m.srcDeviceId = 0;
  m.dstDeviceId = 1;
  feed(m);
  const Fake::Slice s = slice("Memcpy PtoP");
  EXPECT_EQ(s.kind, PROF_CATEGORY_MEMCPY_PTOP);
  EXPECT_EQ(s.args.at("src_device"), "0");
  EXPECT_EQ(s.args.at("dst_device"), "1");
  EXPECT_EQ(s.args.at("bytes"), std::to_string(1 << 20));
}

TEST_F(ActivityTranslation, MemsetKeepsBytesAndValue) {
  auto m = record<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  m.bytes = 512;
  m.value = 0xab;
  m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  m.start = 20;
  m.end = 21;
  m.streamId = 2;
  feed(m);
  const Fake::Slice s = slice("Memset");
  EXPECT_EQ(s.kind, PROF_CATEGORY_MEMSET);
  EXPECT_EQ(s.args.at("bytes"), "512");
  EXPECT_EQ(s.args.at("value"), "171");
  EXPECT_EQ(s.args.at("memory"), "device");
}

TEST_F(ActivityTranslation, ApiCallGoesOnItsThreadAndFlowsToItsKernel) {
  auto call = record<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  call.cbid = 211;
  call.start = 100;
  call.end = 160;
  call.processId = static_cast<uint32_t>(getpid());
  call.threadId = static_cast<uint32_t>(gettid());
  call.correlationId = 7;
  feed(call);
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "k";
  k.start = 200;
  k.end = 300;
  k.correlationId = 7;
  feed(k);
  const Fake::Slice api = slice("cudaLaunchKernel");
  EXPECT_EQ(api.kind, PROF_CATEGORY_RUNTIME_API);
  EXPECT_EQ(api.category, "CUDA runtime API");
  const Fake::Track thread = host_.track(api.track);
  EXPECT_EQ(thread.kind, PROF_TRACK_THREAD);
  EXPECT_EQ(thread.tid, gettid());
  EXPECT_EQ(thread.pid, getpid());
  const std::vector<Fake::Flow> flows = host_.flows();
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0].phase, PROF_FLOW_BEGIN);
  EXPECT_EQ(flows[0].track, api.track);
  EXPECT_EQ(flows[0].ts, 100u);
  EXPECT_EQ(flows[1].phase, PROF_FLOW_END);
  EXPECT_EQ(flows[1].track, slice("k").track);
  EXPECT_EQ(flows[1].ts, 200u);
  EXPECT_EQ(flows[0].id, session_correlation(4321, 7));
}

TEST_F(ActivityTranslation, NoFlowsWhenApiCallsAreNotTraced) {
  translator_.set_flows(false);
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "k";
  k.end = 3;
  k.correlationId = 8;
  feed(k);
  EXPECT_TRUE(host_.flows().empty());
}

TEST_F(ActivityTranslation, FailedCallCarriesItsResultAndExternalId) {
  auto external =
      record<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  external.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
  external.externalId = 555;
  external.correlationId = 9;
  feed(external);
  auto call = record<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  call.cbid = 20;
  call.start = 1;
  call.end = 2;
  call.threadId = static_cast<uint32_t>(gettid());
  call.correlationId = 9;
  call.returnValue = 2; // cudaErrorMemoryAllocation
  feed(call);
  const Fake::Slice s = slice("cudaMalloc");
  EXPECT_EQ(s.args.at("result"), "2");
  EXPECT_EQ(s.args.at("external_id"), "555");
  EXPECT_EQ(s.args.at("external_kind"), std::to_string(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0));
}

TEST_F(ActivityTranslation, UnknownApiFunctionStillHasAName) {
  auto call = record<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_DRIVER);
  call.cbid = 4242;
  call.end = 1;
  call.threadId = static_cast<uint32_t>(gettid());
  feed(call);
  EXPECT_EQ(slice("CUDA API 4242").kind, PROF_CATEGORY_DRIVER_API);
}

TEST_F(ActivityTranslation, AllocationsAndFreesFollowTheMemoryEventShape) {
  auto alloc = record<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  alloc.address = 0x7f0000000000;
  alloc.bytes = 1 << 20;
  alloc.timestamp = 50;
  alloc.deviceId = 0;
  alloc.correlationId = 11;
  alloc.streamId = CUPTI_INVALID_STREAM_ID;
  feed(alloc);
  auto second = alloc;
  second.address = 0x7f0000100000;
  second.bytes = 3 << 20;
  second.timestamp = 60;
  feed(second);
  auto pinned = alloc;
  pinned.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  pinned.address = 0x5000;
  pinned.timestamp = 65;
  feed(pinned);
  auto release = alloc;
  release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
  release.timestamp = 70;
  feed(release);
  auto earlier = release; // a block allocated before the capture: used stays
  earlier.address = 0x7e0000000000;
  earlier.timestamp = 75;
  feed(earlier);

  const std::vector<Fake::Instant> instants = host_.instants();
  ASSERT_EQ(instants.size(), 5u);
  EXPECT_EQ(instants[0].kind, PROF_CATEGORY_MEMORY);
  EXPECT_EQ(instants[0].args.at(PROF_MEMORY_ARG_OPERATION), "alloc");
  EXPECT_EQ(instants[0].args.at(PROF_MEMORY_ARG_ADDRESS), std::to_string(0x7f0000000000));
  EXPECT_EQ(instants[0].args.at(PROF_MEMORY_ARG_BYTES), std::to_string(1 << 20));
  EXPECT_EQ(instants[0].args.at(PROF_MEMORY_ARG_MEMORY), "device");
  EXPECT_EQ(instants[0].args.at(PROF_MEMORY_ARG_CORRELATION),
            std::to_string(session_correlation(4321, 11)));
  EXPECT_EQ(instants[2].args.at(PROF_MEMORY_ARG_MEMORY), "pinned");
  EXPECT_EQ(instants[3].args.at(PROF_MEMORY_ARG_OPERATION), "free");
  EXPECT_EQ(path(instants[0].track), "GPU 0 > Memory");
  // Pinned host memory is an event but not device memory used.
  const auto used = host_.counter_track("GPU 0", PROF_MEMORY_USED_TRACK);
  ASSERT_TRUE(used);
  EXPECT_EQ(used->unit, "bytes");
  std::vector<double> values;
  for (const Fake::Counter &c : host_.values(used->id))
    values.push_back(c.value);
  EXPECT_EQ(values, (std::vector<double>{1 << 20, 4 << 20, 3 << 20}));
}

TEST_F(ActivityTranslation, SyncGoesUnderTheStreamOfItsContextsDevice) {
  auto context = record<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  context.contextId = 5;
  context.deviceId = 2;
  feed(context);
  auto wait = record<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  wait.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  wait.contextId = 5;
  wait.streamId = 3;
  wait.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  wait.start = 10;
  wait.end = 40;
  feed(wait);
  auto whole = wait;
  whole.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  whole.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  feed(whole);
  const Fake::Slice s = slice("Stream synchronize");
  EXPECT_EQ(s.kind, PROF_CATEGORY_SYNC);
  EXPECT_EQ(path(s.track), "GPU 2 > Stream 3 > Sync");
  EXPECT_EQ(path(slice("Context synchronize").track), "GPU 2 > Sync");
}

TEST_F(ActivityTranslation, GraphLaunchIsOneSliceOnItsStream) {
  auto g = record<CUpti_ActivityGraphTrace2>(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
  g.graphId = 12;
  g.streamId = 4;
  g.start = 1;
  g.end = 90;
  feed(g);
  const Fake::Slice s = slice("CUDA graph 12");
  EXPECT_EQ(s.args.at("graph"), "12");
  EXPECT_EQ(path(s.track), "GPU 0 > Stream 4");
}

TEST_F(ActivityTranslation, CuptiClockIsShiftedOntoTheSessionClock) {
  translator_.set_clock_offset(1'000'000);
  auto k = record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = "k";
  k.start = 1'000'500;
  k.end = 1'000'700;
  feed(k);
  EXPECT_EQ(slice("k").begin, 500u);
  EXPECT_EQ(slice("k").duration, 200u);
}

TEST_F(ActivityTranslation, OtherKindsAreCountedNotShown) {
  auto device = record<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  feed(device);
  EXPECT_EQ(translator_.ignored(), 1u);
  EXPECT_EQ(translator_.translated(), 0u);
  EXPECT_TRUE(host_.slices().empty());
}

TEST(ApiDisplayName, DropsOnlyTheVersionSuffix) {
  EXPECT_EQ(api_display_name("cudaMalloc_v3020"), "cudaMalloc");
  EXPECT_EQ(api_display_name("cuMemcpyHtoD_v2"), "cuMemcpyHtoD");
  EXPECT_EQ(api_display_name("cudaMemcpy_ptds"), "cudaMemcpy_ptds");
  EXPECT_EQ(api_display_name("cuda_v"), "cuda_v");
}

} // namespace
} // namespace prof::cuda
