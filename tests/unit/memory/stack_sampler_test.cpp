// The sample by bytes behind the heap's call stacks: what it estimates from
// its samples is the bytes allocated, within the error it states; a period
// of one byte takes every allocation and weighs each exactly; equal stacks
// share one id.
#include "stack_sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

using namespace prof::memory;

namespace {

struct Estimate {
  double bytes = 0, variance = 0;
  uint64_t samples = 0;
};

// `count` allocations of `size` bytes through the sampler, as the hooks make them.
Estimate allocate(int count, uint64_t size, uint64_t period) {
  Estimate e;
  for (int i = 0; i < count; ++i) {
    if (sample_stack(size, 0x1234) == 0) continue;
    e.bytes += sampled_weight(size, period);
    e.variance += sampled_variance(size, period);
    ++e.samples;
  }
  return e;
}

// Each test samples on a thread of its own: a thread's distance to its next
// sample is drawn with the period of its time, and a test's must not carry
// into the next (the hooks' threads see one period in their life).
class StackSampler : public ::testing::Test {
protected:
  void TearDown() override { stop_stack_sampling(); }
  template <typename Body> static void on_a_new_thread(Body body) { std::thread(body).join(); }
};

} // namespace

TEST_F(StackSampler, EstimatesTheBytesWithinItsStatedError) {
  on_a_new_thread([] {
    constexpr uint64_t kPeriod = 64 * 1024;
    start_stack_sampling(kPeriod, nullptr);
    // 20 MB in 200,000 small blocks: about 300 samples; then blocks of twice the period.
    for (const uint64_t size : {uint64_t{100}, 2 * kPeriod}) {
      SCOPED_TRACE("blocks of " + std::to_string(size) + " bytes");
      const int count = size == 100 ? 200'000 : 300;
      const Estimate e = allocate(count, size, kPeriod);
      const double truth = static_cast<double>(count) * static_cast<double>(size);
      EXPECT_GT(e.samples, 0u);
      EXPECT_LT(e.samples, static_cast<uint64_t>(count) + 1);
      const double sigma = std::sqrt(e.variance);
      // The stated error is sqrt(bytes x period) for small blocks: 8% here.
      if (size == 100) EXPECT_NEAR(sigma / truth, std::sqrt(double(kPeriod) / truth), 0.03);
      EXPECT_NEAR(e.bytes, truth, 5 * sigma + 1); // 5 standard errors: fails once in 10^6
    }
  });
}

TEST_F(StackSampler, APeriodOfOneByteTakesEveryAllocationAtItsSize) {
  on_a_new_thread([] {
    start_stack_sampling(1, nullptr);
    allocate(1, 64, 1); // the thread's first draw
    const Estimate e = allocate(1000, 48, 1);
    EXPECT_EQ(e.samples, 1000u);
    EXPECT_DOUBLE_EQ(e.bytes, 48'000.0);
    EXPECT_DOUBLE_EQ(e.variance, 0.0);
  });
}

TEST_F(StackSampler, StopsTakingStacksAndNeverSamplesEmptyBlocks) {
  on_a_new_thread([] {
    start_stack_sampling(1, nullptr);
    EXPECT_EQ(sample_stack(0, 0x1234), 0u);
    stop_stack_sampling();
    EXPECT_EQ(allocate(1000, 4096, 1).samples, 0u);
  });
}

// On the test's own thread (gtest's and main's frames below it, unlike a new
// thread's): the distance left from an earlier test is walked off first.
TEST_F(StackSampler, OneCallStackIsKeptOnceWhateverTheThread) {
  start_stack_sampling(1, nullptr);
  const auto sample_here = [] { return sample_stack(32, 0x1234); };
  uint32_t first = 0;
  for (int i = 0; i < 1'000'000 && first == 0; ++i)
    first = sample_here();
  ASSERT_NE(first, 0u);
  EXPECT_EQ(sample_here(), first);
  const uint32_t size = sampled_stacks().size();
  const RawStack &raw = sampled_stacks().at(first);
  EXPECT_GT(raw.native_count, 2); // this test's frames, gtest's, main's
  EXPECT_EQ(raw.python_count, 0);
  uint32_t elsewhere = 0;
  std::thread([&] {
    for (int i = 0; i < 3 && elsewhere == 0; ++i)
      elsewhere = sample_stack(32, 0x1234);
  }).join();
  EXPECT_NE(elsewhere, 0u);
  EXPECT_NE(elsewhere, first); // another thread, another stack
  EXPECT_EQ(sampled_stacks().size(), size + 1);
  EXPECT_EQ(sampled_stacks().refused(), 0u);
}
