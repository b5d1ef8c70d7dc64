// TorchRecorder: PyTorch's calls, as the bridge hands them over, become
// operator slices with their pass and self time, flows from forward
// operators to backward nodes, communication slices matched across ranks,
// and steps.
#include "tensor_blocks.hpp"
#include "torch_recorder.hpp"

#include <prof/testing/fake_source_host.hpp>
#include <prof/tsc_clock.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace prof::torch {
namespace {

using testing::FakeSourceHost;
using testing::HostAbi;

class TorchRecorderTest : public ::testing::Test {
protected:
  void start(RecorderOptions options = {}) {
    recorder_ = std::make_unique<TorchRecorder>(Host(host_.api(), &host_), options);
  }

  /// One call from begin to end, `inside` run in between.
  template <class Inside = void (*)()>
  void call(
      prof_torch_call c, Inside inside = [] {}) {
    prof_torch_open_call open;
    recorder_->begin(c, open);
    inside();
    recorder_->end(open);
  }
  static prof_torch_call op(const char *name, int64_t sequence = -1) {
    prof_torch_call c{};
    c.name = name;
    c.kind = PROF_TORCH_OPERATOR;
    c.sequence = sequence;
    c.thread = 1;
    c.elements = c.bytes = -1;
    return c;
  }
  static prof_torch_call node(const char *name, int64_t sequence) {
    prof_torch_call c = op(name, sequence);
    c.kind = PROF_TORCH_BACKWARD_NODE;
    c.forward_thread = 1;
    return c;
  }
  static prof_torch_call range(const char *name) {
    prof_torch_call c = op(name);
    c.kind = PROF_TORCH_USER_RANGE;
    return c;
  }
  FakeSourceHost::Slice slice(const std::string &name) const {
    for (const auto &s : host_.slices())
      if (s.name == name) return s;
    ADD_FAILURE() << "no slice " << name;
    return {};
  }
  std::vector<FakeSourceHost::Slice> slices_of(uint16_t kind) const {
    std::vector<FakeSourceHost::Slice> found;
    for (const auto &s : host_.slices())
      if (s.kind == kind) found.push_back(s);
    return found;
  }

  FakeSourceHost host_{0, HostAbi::current};
  std::unique_ptr<TorchRecorder> recorder_;
};

TEST_F(TorchRecorderTest, OperatorsCarryTheirPassAndSelfTime) {
  start();
  call(op("aten::linear", 0), [&] {
    call(op("aten::t", 0));
    call(op("aten::addmm", 1), [&] { call(op("aten::copy_")); });
  });
  const auto linear = slice("aten::linear"), t = slice("aten::t"), addmm = slice("aten::addmm"),
             copy = slice("aten::copy_");
  EXPECT_EQ(linear.kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(linear.category, "torch");
  EXPECT_EQ(linear.args.at("pass"), "forward");
  EXPECT_EQ(linear.args.at("sequence number"), "0");
  EXPECT_EQ(copy.args.count("sequence number"), 0u);
  EXPECT_EQ(std::stoull(linear.args.at("self")), linear.duration - t.duration - addmm.duration);
  EXPECT_EQ(std::stoull(addmm.args.at("self")), addmm.duration - copy.duration);
  EXPECT_EQ(std::stoull(copy.args.at("self")), copy.duration);
  EXPECT_LE(linear.begin, t.begin);
  EXPECT_GE(linear.begin + linear.duration, addmm.begin + addmm.duration);
}

TEST_F(TorchRecorderTest, BackwardNodesAreTiedToTheForwardOperatorTheyDifferentiate) {
  start();
  call(op("aten::linear", 0), [&] {
    call(op("aten::t", 0)); // the latest with sequence 0: TBackward0's
    call(op("aten::addmm", 1));
  });
  call(op("autograd::engine::evaluate_function: AddmmBackward0"),
       [&] { call(node("AddmmBackward0", 1), [&] { call(op("aten::mm")); }); });
  call(node("TBackward0", 0));
  call(node("TBackward0", 0)); // a second node of that number finds nothing

  EXPECT_EQ(slice("AddmmBackward0").args.at("pass"), "backward");
  EXPECT_EQ(slice("aten::mm").args.at("pass"), "backward");
  EXPECT_EQ(slice("autograd::engine::evaluate_function: AddmmBackward0").args.at("pass"),
            "backward");
  EXPECT_EQ(slice("AddmmBackward0").args.at("forward thread"), "1");

  const auto flows = host_.flows();
  ASSERT_EQ(flows.size(), 4u);
  const auto begin_of = [&](uint64_t id) {
    for (const auto &f : flows)
      if (f.id == id && f.phase == PROF_FLOW_BEGIN) return f.ts;
    return uint64_t{0};
  };
  const auto end_at = [&](uint64_t ts) {
    for (const auto &f : flows)
      if (f.ts == ts && f.phase == PROF_FLOW_END) return f.id;
    return uint64_t{0};
  };
  EXPECT_EQ(begin_of(end_at(slice("AddmmBackward0").begin)), slice("aten::addmm").begin);
  EXPECT_EQ(begin_of(end_at(slice("TBackward0").begin)), slice("aten::t").begin);
}

TEST_F(TorchRecorderTest, ShapesAreArgumentsWhenTheBridgeGivesThem) {
  RecorderOptions options;
  options.shapes = true;
  start(options);
  prof_torch_call mm = op("aten::mm");
  mm.shapes = "[[2, 4], [4, 16]]";
  mm.types = "[float, float]";
  call(mm);
  EXPECT_TRUE(recorder_->wants_shapes());
  EXPECT_EQ(slice("aten::mm").args.at("input shapes"), "[[2, 4], [4, 16]]");
  EXPECT_EQ(slice("aten::mm").args.at("input types"), "[float, float]");
}

TEST_F(TorchRecorderTest, ACollectiveCarriesItsGroupAndSequenceFromItsC10dOperator) {
  start();
  int group = 0;
  const int64_t ranks[] = {0, 1, 2, 3};
  name_group({&group, "0", "gloo", 1, 4, ranks, 4, PROF_TORCH_SEQUENCE_UNKNOWN});
  EXPECT_TRUE(process_groups().knows(&group));
  for (uint64_t tensor : {0x100u, 0x200u}) {
    prof_torch_call c10d = op("c10d::allreduce_");
    c10d.group = &group;
    c10d.first_tensor = tensor;
    call(c10d);
  }
  // The backend runs them on its own thread, the second bucket first.
  std::thread worker([&] {
    for (uint64_t tensor : {0x200u, 0x100u}) {
      prof_torch_call gloo = op("gloo:all_reduce");
      gloo.kind = PROF_TORCH_COLLECTIVE;
      gloo.first_tensor = tensor;
      gloo.elements = 212;
      gloo.bytes = 848;
      gloo.dtype = "float";
      call(gloo);
    }
  });
  worker.join();
  const auto communication = slices_of(PROF_CATEGORY_COMMUNICATION);
  ASSERT_EQ(communication.size(), 2u);
  EXPECT_EQ(communication[0].name, "gloo:all_reduce");
  EXPECT_EQ(communication[0].args.at("sequence"), "2");
  EXPECT_EQ(communication[1].args.at("sequence"), "1");
  for (const auto &s : communication) {
    EXPECT_EQ(s.args.at("communicator"), "gloo:0");
    EXPECT_EQ(s.args.at("operation"), "all_reduce");
    EXPECT_EQ(s.args.at("bytes"), "848");
    EXPECT_EQ(s.args.at("elements"), "212");
    EXPECT_EQ(s.args.at("dtype"), "float");
    EXPECT_EQ(s.args.at("backend"), "gloo");
    EXPECT_EQ(s.args.at("group size"), "4");
    EXPECT_EQ(s.args.at("group ranks"), "0-3");
    EXPECT_EQ(s.args.at("rank"), "1");
    EXPECT_EQ(s.arg_types.at("queued"), PROF_ARG_UINT); // issued before the worker ran it
  }
  const auto c10d = slices_of(PROF_CATEGORY_OPERATOR);
  ASSERT_EQ(c10d.size(), 2u);
  EXPECT_EQ(c10d[0].args.at("communicator"), "gloo:0");
  EXPECT_EQ(c10d[0].args.at("sequence"), "1");
  EXPECT_NE(communication[0].track, c10d[0].track);
  // A flow from each c10d operator to the call that carried it out.
  const auto flows = host_.flows();
  ASSERT_EQ(flows.size(), 4u);
  for (const auto &f : flows)
    if (f.phase == PROF_FLOW_END) {
      const auto begin = std::find_if(flows.begin(), flows.end(), [&](const auto &other) {
        return other.id == f.id && other.phase == PROF_FLOW_BEGIN;
      });
      ASSERT_NE(begin, flows.end());
      EXPECT_EQ(begin->track, c10d[0].track);
    }
}

// A recording that stopped between a c10d operator and its backend call
// (prof detached) leaves the next recording nothing to take in its place:
// the next operations still match their own calls.
TEST_F(TorchRecorderTest, AnOperatorIssuedBeforeThisRecordingIsNotTakenByItsCalls) {
  start();
  int group = 0;
  const int64_t ranks[] = {0, 1};
  name_group({&group, "1", "gloo", 0, 2, ranks, 2, PROF_TORCH_SEQUENCE_UNKNOWN});
  prof_torch_call c10d = op("c10d::allreduce_");
  c10d.group = &group;
  c10d.first_tensor = 0x100;
  call(c10d); // its backend call comes after the recording ends
  set_active_recorder(nullptr);
  start(); // the next recording (prof attached again, or resumed)
  set_active_recorder(recorder_.get());
  prof_torch_call gloo = op("gloo:all_reduce");
  gloo.kind = PROF_TORCH_COLLECTIVE;
  gloo.first_tensor = 0x100;
  call(gloo); // the earlier operator's: no operator of this recording
  call(c10d);
  call(gloo);
  const auto communication = slices_of(PROF_CATEGORY_COMMUNICATION);
  set_active_recorder(nullptr);
  ASSERT_EQ(communication.size(), 2u);
  EXPECT_EQ(communication[0].args.at("communicator"), "unmatched");
  EXPECT_EQ(communication[1].args.at("sequence"), "2");
}

// A flight recorder's dump: the backend collective a rank waits in, with
// its communicator and sequence, and nothing once it ended.
TEST_F(TorchRecorderTest, ARunningCollectiveIsEmittedUnfinishedAtADump) {
  start();
  int group = 0;
  const int64_t ranks[] = {0, 1};
  name_group({&group, "2", "gloo", 1, 2, ranks, 2, PROF_TORCH_SEQUENCE_UNKNOWN});
  prof_torch_call c10d = op("c10d::allreduce_");
  c10d.group = &group;
  c10d.first_tensor = 0x300;
  call(c10d);
  prof_torch_call gloo = op("gloo:all_reduce");
  gloo.kind = PROF_TORCH_COLLECTIVE;
  gloo.first_tensor = 0x300;
  prof_torch_open_call open;
  recorder_->begin(gloo, open);
  const uint64_t dump_at = TscClock::now_ns();
  recorder_->emit_unfinished(dump_at);
  auto communication = slices_of(PROF_CATEGORY_COMMUNICATION);
  ASSERT_EQ(communication.size(), 1u);
  EXPECT_EQ(communication[0].name, "gloo:all_reduce");
  EXPECT_EQ(communication[0].args.at("communicator"), "gloo:2");
  EXPECT_EQ(communication[0].args.at("sequence"), "1");
  EXPECT_EQ(communication[0].begin + communication[0].duration, dump_at);
  recorder_->end(open);
  recorder_->emit_unfinished(TscClock::now_ns());
  communication = slices_of(PROF_CATEGORY_COMMUNICATION);
  ASSERT_EQ(communication.size(), 2u); // its end, and no second unfinished one
  EXPECT_EQ(communication[1].begin, communication[0].begin);
  EXPECT_GE(communication[1].duration, communication[0].duration);
}

TEST_F(TorchRecorderTest, ACollectiveWithoutItsOperatorIsUnmatched) {
  start();
  prof_torch_call gloo = op("gloo:broadcast");
  gloo.kind = PROF_TORCH_COLLECTIVE;
  call(gloo);
  const auto communication = slices_of(PROF_CATEGORY_COMMUNICATION);
  ASSERT_EQ(communication.size(), 1u);
  EXPECT_EQ(communication[0].args.at("communicator"), "unmatched");
  EXPECT_EQ(communication[0].args.count("sequence"), 0u);
}

TEST_F(TorchRecorderTest, OptimizerStepsEndSteps) {
  start();
  call(op("aten::uniform_")); // the model is made: no step yet
  for (int i = 0; i < 3; ++i) {
    call(range("Optimizer.zero_grad#SGD.zero_grad"));
    call(op("aten::mm"));
    call(range("Optimizer.step#SGD.step"));
  }
  const auto steps = slices_of(PROF_CATEGORY_ANNOTATION);
  std::vector<FakeSourceHost::Slice> marked;
  for (const auto &s : steps)
    if (s.name == "step") marked.push_back(s);
  ASSERT_EQ(marked.size(), 3u);
  EXPECT_EQ(marked[0].args.at("step"), "1");
  EXPECT_EQ(marked[2].args.at("step"), "3");
  EXPECT_EQ(marked[0].category, "torch/step");
  // The first from the first zero_grad, each other from the end of the one before it.
  EXPECT_EQ(marked[0].begin, slice("Optimizer.zero_grad#SGD.zero_grad").begin);
  EXPECT_EQ(marked[1].begin, marked[0].begin + marked[0].duration);
  EXPECT_EQ(recorder_->steps(), 3u);
  EXPECT_EQ(slice("Optimizer.step#SGD.step").kind, PROF_CATEGORY_ANNOTATION);
}

TEST_F(TorchRecorderTest, ProfilerStepsAreTheStepsOnceSeen) {
  start();
  call(range("ProfilerStep#7"), [&] { call(range("Optimizer.step#SGD.step")); });
  std::vector<std::string> numbers;
  for (const auto &s : host_.slices())
    if (s.name == "step") numbers.push_back(s.args.at("step"));
  EXPECT_EQ(numbers, std::vector<std::string>{"7"});
}

// A program that marks its own steps (prof.step()) has those; torch's would
// be numbered from the attach.
TEST_F(TorchRecorderTest, AutoStepsYieldToTheProcesssOwnMarks) {
  static bool marks = false;
  RecorderOptions options;
  options.process_marks_steps = [] { return marks; };
  start(options);
  call(range("Optimizer.step#SGD.step"));
  marks = true;
  call(range("Optimizer.step#SGD.step"));
  call(range("ProfilerStep#7"));
  std::vector<std::string> numbers;
  for (const auto &s : host_.slices())
    if (s.name == "step") numbers.push_back(s.args.at("step"));
  EXPECT_EQ(numbers, std::vector<std::string>{"1"});
}

TEST_F(TorchRecorderTest, ANamedRangeIsOneStep) {
  RecorderOptions options;
  options.steps = "train_step";
  options.process_marks_steps = [] { return true; }; // named steps were asked for: kept
  start(options);
  call(range("train_step"));
  call(range("Optimizer.step#SGD.step"));
  call(range("train_step"));
  std::vector<std::string> numbers;
  for (const auto &s : host_.slices())
    if (s.name == "step") numbers.push_back(s.args.at("step"));
  EXPECT_EQ(numbers, (std::vector<std::string>{"1", "2"}));
}

TEST_F(TorchRecorderTest, OperatorsOffLeavesRangesAndCollectives) {
  RecorderOptions options;
  options.operators = false;
  start(options);
  call(op("aten::mm"));
  call(range("DistributedDataParallel.forward"));
  EXPECT_TRUE(slices_of(PROF_CATEGORY_OPERATOR).empty());
  EXPECT_EQ(slices_of(PROF_CATEGORY_ANNOTATION).size(), 1u);
}

} // namespace
} // namespace prof::torch

namespace prof::torch {
namespace {

TEST_F(TorchRecorderTest, MemoryIsEachBlockAndWhatEachOperatorKept) {
  RecorderOptions options;
  options.memory = true;
  start(options);
  uint64_t live = 0;
  const auto allocate = [&](uintptr_t at, uint64_t bytes) {
    recorder_->memory(at, bytes, false, live += bytes);
  };
  const auto free = [&](uintptr_t at, uint64_t bytes) {
    recorder_->memory(at, bytes, true, live -= bytes);
  };
  // linear keeps its output (64) and frees addmm's scratch (16); t keeps nothing.
  call(op("aten::linear"), [&] {
    call(op("aten::t"), [&] {
      allocate(0x1000, 8);
      free(0x1000, 8);
    });
    call(op("aten::addmm"), [&] {
      allocate(0x2000, 64);
      allocate(0x3000, 16);
    });
    free(0x3000, 16);
  });
  const auto linear = slice("aten::linear"), t = slice("aten::t"), addmm = slice("aten::addmm");
  EXPECT_EQ(linear.args.at("allocated"), "64");
  EXPECT_EQ(linear.args.at("self allocated"), "-16");
  EXPECT_EQ(t.args.at("allocated"), "0");
  EXPECT_EQ(addmm.args.at("allocated"), "80");
  EXPECT_EQ(addmm.args.at("self allocated"), "80");

  std::vector<std::string> blocks;
  for (const auto &i : host_.instants()) {
    ASSERT_EQ(i.kind, PROF_CATEGORY_MEMORY);
    EXPECT_EQ(i.args.at("memory"), "host");
    EXPECT_EQ(i.args.at("operation"), i.name);
    blocks.push_back(i.name + " " + i.args.at("address") + " " + i.args.at("bytes"));
  }
  EXPECT_EQ(blocks, (std::vector<std::string>{"alloc 4096 8", "free 4096 8", "alloc 8192 64",
                                              "alloc 12288 16", "free 12288 16"}));
  std::vector<double> counter;
  for (const auto &c : host_.counters())
    counter.push_back(c.value);
  EXPECT_EQ(counter, (std::vector<double>{8, 0, 64, 80, 64}));
}

TEST_F(TorchRecorderTest, WithoutMemoryOperatorsSayNothingOfIt) {
  start();
  call(op("aten::mm"), [&] {});
  EXPECT_EQ(slice("aten::mm").args.count("allocated"), 0u);
  EXPECT_FALSE(recorder_->wants_memory());
}

TEST(TensorBlocks, AFreeRepeatsItsAllocationAndForgetsIt) {
  TensorBlocks blocks;
  EXPECT_EQ(blocks.add(0x100, 40), 40u);
  EXPECT_EQ(blocks.add(0x200, 2), 42u);
  EXPECT_EQ(blocks.take(0x100), std::optional<uint64_t>(40));
  EXPECT_EQ(blocks.take(0x100), std::nullopt); // freed twice, or never seen
  EXPECT_EQ(blocks.live(), 2u);
  EXPECT_EQ(blocks.add(0x200, 6), 6u); // its address reused: the unseen free forgotten
}

} // namespace
} // namespace prof::torch
