// The merge of native and Python frames, on made-up samples: each frame of
// the evaluation function gives way to the Python frames its call runs.
#include "sample_record.hpp"

#include <prof/python/frame_merge.hpp>

#include <gtest/gtest.h>

#include <memory>

namespace prof::python {
namespace {

constexpr uintptr_t kEvalBegin = 0x5000;
constexpr uintptr_t kEvalEnd = 0x6000;

PythonRuntime fake_runtime() {
  PythonRuntime runtime;
  runtime.eval_begin = kEvalBegin;
  runtime.eval_end = kEvalEnd;
  return runtime;
}

struct Made {
  std::unique_ptr<SampleRecord> record = std::make_unique<SampleRecord>();
  Made &native(uintptr_t address) {
    record->native[record->native_count++] = address;
    return *this;
  }
  Made &python(uintptr_t code, bool last_of_group) {
    record->python[record->python_count++] = PythonFrameRef{code, 0, 0, 0, last_of_group};
    return *this;
  }
};

std::vector<std::string> merge(const SampleRecord &record) {
  const PythonRuntime runtime = fake_runtime();
  return merge_frames(
      runtime, {record.native, record.native_count}, {record.python, record.python_count},
      [](uintptr_t address) {
        return address - 1 >= kEvalBegin && address - 1 < kEvalEnd
                   ? std::string("eval")
                   : "native " + std::to_string(address);
      },
      [](const PythonFrameRef &frame) { return "py " + std::to_string(frame.code); });
}

TEST(SampleMerge, EachEvaluationFrameBecomesTheFramesItsCallRuns) {
  Made made;
  // leaf: a C function the innermost Python frame called, then two loop calls
  made.native(0x100)
      .native(kEvalBegin + 0x10)
      .native(0x200)
      .native(kEvalBegin + 0x20)
      .native(0x300);
  made.python(1, false).python(2, true).python(3, false).python(4, true);
  EXPECT_EQ(merge(*made.record),
            (std::vector<std::string>{"native 256", "py 1", "py 2", "native 512", "py 3", "py 4",
                                      "native 768"}));
}

TEST(SampleMerge, ALoopCallBetweenFramesGivesWayToNothing) {
  Made made;
  // the upper loop call has just unlinked the frame it ran, and is clearing it
  made.native(0x100).native(kEvalBegin + 0x10).native(0x200).native(kEvalBegin + 0x20);
  made.python(0, true).python(3, false).python(4, true);
  EXPECT_EQ(merge(*made.record),
            (std::vector<std::string>{"native 256", "native 512", "py 3", "py 4"}));
}

TEST(SampleMerge, AThreadWithoutPythonKeepsItsNativeStack) {
  Made made;
  made.native(0x100).native(kEvalBegin + 1).native(0x300);
  EXPECT_EQ(merge(*made.record), (std::vector<std::string>{"native 256", "eval", "native 768"}));
}

TEST(SampleMerge, PythonFramesBeyondACutNativeStackComeLast) {
  Made made;
  made.native(kEvalBegin + 4);
  made.python(1, true).python(2, false).python(3, true);
  EXPECT_EQ(merge(*made.record), (std::vector<std::string>{"py 1", "py 2", "py 3"}));
}

TEST(SampleMerge, EvaluationFramesBeyondThePythonOnesStayNative) {
  Made made;
  made.native(kEvalBegin + 4).native(kEvalBegin + 8);
  made.python(7, true);
  EXPECT_EQ(merge(*made.record), (std::vector<std::string>{"py 7", "eval"}));
}

} // namespace
} // namespace prof::python
