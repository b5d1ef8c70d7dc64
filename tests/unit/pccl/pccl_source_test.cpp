// The pccl source against a fake host, driven through its v5 entry point:
// NCCL's activation mask follows collection on and off, events started
// while off are not recorded, and what NCCL may hand it that makes no sense
// (unknown types, no parent, null handles) records nothing and fails nothing.
#include "nccl_profiler_abi.hpp"
#include "pccl_source.hpp"

#include <prof/testing/fake_source_host.hpp>
#include <prof/tsc_clock.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

extern "C" prof::pccl::nccl::ProfilerV5 ncclProfiler_v5;

namespace prof::pccl {
namespace {

using testing::FakeSourceHost;
using testing::HostAbi;

nccl::EventDescrV5 collective(uint64_t sequence) {
  nccl::EventDescrV5 d{};
  d.type = nccl::kColl;
  d.coll.seq_number = sequence;
  d.coll.func = "Broadcast";
  d.coll.count = 10;
  d.coll.datatype = "ncclFloat64";
  d.coll.root = 3;
  return d;
}

size_t named(const FakeSourceHost &host, const std::string &name) {
  size_t n = 0;
  for (const auto &s : host.slices())
    n += s.name == name;
  return n;
}

// A started source, and the communicators NCCL initializes through it.
class PcclSourceTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(source_.configure());
    ASSERT_TRUE(source_.start());
  }
  /// NCCL's init of a communicator: its context; `mask_` gets its activation mask.
  void *init(uint64_t hash, const char *name, int nodes, int ranks, int rank) {
    void *context = nullptr;
    EXPECT_EQ(ncclProfiler_v5.init(&context, hash, &mask_, name, nodes, ranks, rank, nullptr),
              nccl::kSuccess);
    return context;
  }
  FakeSourceHost host_{getpid(), HostAbi::current};
  PcclSource source_{Host(host_.api(), &host_)};
  int mask_ = 0;
};

TEST_F(PcclSourceTest, TheMaskAndTheRecordFollowCollection) {
  FakeSourceHost &host = host_;
  PcclSource &source = source_;
  const int &mask = mask_;
  void *context = init(7, "", 1, 8, 5);
  EXPECT_EQ(mask & nccl::kColl, nccl::kColl);
  EXPECT_EQ(mask & nccl::kProxyStep, nccl::kProxyStep);

  const auto run = [&](uint64_t sequence) {
    nccl::EventDescrV5 d = collective(sequence);
    void *handle = nullptr;
    EXPECT_EQ(ncclProfiler_v5.start_event(context, &handle, &d), nccl::kSuccess);
    EXPECT_EQ(ncclProfiler_v5.stop_event(handle), nccl::kSuccess);
  };
  run(0);
  ASSERT_TRUE(source.suspend());
  EXPECT_EQ(mask, 0) << "NCCL is told to start nothing";
  run(1); // started anyway: not recorded
  ASSERT_TRUE(source.resume());
  EXPECT_EQ(mask & nccl::kColl, nccl::kColl);
  run(2);
  ASSERT_TRUE(source.stop());
  EXPECT_EQ(mask, 0);
  run(3);
  EXPECT_EQ(ncclProfiler_v5.finalize(context), nccl::kSuccess);

  std::vector<std::string> sequences;
  for (const auto &s : host.slices())
    if (s.name == "Broadcast") {
      sequences.push_back(s.args.at("sequence"));
      EXPECT_EQ(s.args.at("bytes"), "80");
      EXPECT_EQ(s.args.at("root"), "3");
      EXPECT_EQ(s.args.at("communicator"), "NCCL 0x0000000000000007");
      EXPECT_EQ(s.kind, PROF_CATEGORY_COMMUNICATION);
    }
  EXPECT_EQ(sequences, (std::vector<std::string>{"0", "2"}));
}

TEST_F(PcclSourceTest, WhatMakesNoSenseRecordsNothingAndFailsNothing) {
  FakeSourceHost &host = host_;
  PcclSource &source = source_;
  void *context = init(9, "dp", 2, 16, 0);
  void *handle = reinterpret_cast<void *>(1);
  nccl::EventDescrV5 unknown{};
  unknown.type = uint64_t{1} << 40; // a type of a later version
  EXPECT_EQ(ncclProfiler_v5.start_event(context, &handle, &unknown), nccl::kSuccess);
  EXPECT_EQ(handle, nullptr);
  nccl::EventDescrV5 v6_only{};
  v6_only.type = nccl::kCeColl; // not a v5 type
  EXPECT_EQ(ncclProfiler_v5.start_event(context, &handle, &v6_only), nccl::kSuccess);
  EXPECT_EQ(handle, nullptr);
  EXPECT_EQ(ncclProfiler_v5.start_event(context, &handle, nullptr), nccl::kSuccess);
  EXPECT_EQ(handle, nullptr);
  // A proxy step whose operation NCCL could not start: no parent.
  nccl::EventDescrV5 step{};
  step.type = nccl::kProxyStep;
  step.proxy_step.step = 4;
  ASSERT_EQ(ncclProfiler_v5.start_event(context, &handle, &step), nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.record_event_state(handle, nccl::kProxyStepSendWait, nullptr),
            nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.stop_event(handle), nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.stop_event(nullptr), nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.record_event_state(nullptr, 0, nullptr), nccl::kSuccess);
  // A proxy operation of another process (PXN): its parent is not read.
  nccl::EventDescrV5 op{};
  op.type = nccl::kProxyOp;
  op.parent = reinterpret_cast<void *>(0x10); // not ours to read
  op.proxy_op.pid = getpid() + 1;
  op.proxy_op.channel = 3;
  op.proxy_op.peer = 1;
  op.proxy_op.is_send = 0;
  ASSERT_EQ(ncclProfiler_v5.start_event(context, &handle, &op), nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.stop_event(handle), nccl::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.finalize(context), nccl::kSuccess);
  ASSERT_TRUE(source.stop());

  EXPECT_EQ(named(host, "Send step") + named(host, "Recv step"), 0u);
  ASSERT_EQ(named(host, "Proxy recv"), 1u);
  for (const auto &s : host.slices())
    if (s.name == "Proxy recv") {
      EXPECT_EQ(s.args.count("operation"), 0u);
      EXPECT_EQ(s.args.at("channel"), "3");
    }
}

// A collective is in flight from its enqueueing until its kernel stopped on
// every channel; one done means the earlier ones are too (one stream). A
// dump shows those in flight, with their communicator and sequence.
TEST_F(PcclSourceTest, ADumpShowsTheCollectivesInFlight) {
  FakeSourceHost &host = host_;
  PcclSource &source = source_;
  void *context = init(7, "", 1, 8, 5);
  const auto start = [&](nccl::EventDescrV5 d) {
    void *handle = nullptr;
    EXPECT_EQ(ncclProfiler_v5.start_event(context, &handle, &d), nccl::kSuccess);
    return handle;
  };
  const auto enqueue = [&](uint64_t sequence) {
    nccl::EventDescrV5 d = collective(sequence);
    d.coll.channels = 2;
    void *coll = start(d);
    EXPECT_EQ(ncclProfiler_v5.stop_event(coll), nccl::kSuccess); // enqueued
    return coll;
  };
  const auto kernel = [&](void *coll, uint8_t channel) {
    nccl::EventDescrV5 d{};
    d.type = nccl::kKernelCh;
    d.parent = coll;
    d.kernel_ch.channel = channel;
    return start(d);
  };
  // The sequences a dump shows now.
  const auto dumped = [&] {
    const size_t before = host.slices().size();
    EXPECT_TRUE(source.emit_unfinished(TscClock::now_ns()));
    std::vector<std::string> sequences;
    for (size_t i = before; i < host.slices().size(); ++i) {
      EXPECT_EQ(host.slices()[i].kind, PROF_CATEGORY_COMMUNICATION);
      EXPECT_EQ(host.slices()[i].args.at("communicator"), "NCCL 0x0000000000000007");
      sequences.push_back(host.slices()[i].args.at("sequence"));
    }
    return sequences;
  };
  void *first = enqueue(0);
  enqueue(1);
  void *third = enqueue(2);
  void *channel0 = kernel(first, 0), *channel1 = kernel(first, 1);
  ncclProfiler_v5.stop_event(channel0);
  EXPECT_EQ(dumped(), (std::vector<std::string>{"0", "1", "2"})) << "one channel of 0 runs on";
  ncclProfiler_v5.stop_event(channel1);
  EXPECT_EQ(dumped(), (std::vector<std::string>{"1", "2"}));
  ncclProfiler_v5.stop_event(kernel(third, 0));
  ncclProfiler_v5.stop_event(kernel(third, 1));
  EXPECT_TRUE(dumped().empty()) << "2 done: 1, before it on the stream, is too";
  ASSERT_TRUE(source.stop());
  EXPECT_EQ(ncclProfiler_v5.finalize(context), nccl::kSuccess);
}

} // namespace
} // namespace prof::pccl
