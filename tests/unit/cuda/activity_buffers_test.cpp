// The buffers handed to CUPTI: aligned, sized by the watermark, refused past
// the budget (so CUPTI drops and counts), and reusable once given back.
#include "activity_buffers.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace prof::cuda {
namespace {

TEST(ActivityBuffers, HandsOutAlignedBuffersUpToTheBudget) {
  ActivityBuffers buffers(4096, 3 * 4096);
  std::vector<uint8_t *> taken;
  for (int i = 0; i < 3; ++i) {
    size_t size = 0;
    uint8_t *buffer = buffers.take(size);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(size, 4096u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer) % ActivityBuffers::kAlignment, 0u);
    taken.push_back(buffer);
  }
  size_t size = 123;
  EXPECT_EQ(buffers.take(size), nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(buffers.refused(), 1u);
  EXPECT_EQ(buffers.outstanding_bytes(), 3 * 4096u);

  buffers.give_back(taken.back());
  taken.pop_back();
  uint8_t *again = buffers.take(size);
  EXPECT_NE(again, nullptr);
  taken.push_back(again);
  for (uint8_t *buffer : taken)
    buffers.give_back(buffer);
  EXPECT_EQ(buffers.outstanding_bytes(), 0u);
}

TEST(ActivityBuffers, CountsRecordsAndDrops) {
  ActivityBuffers buffers(4096, 8192);
  buffers.count_records(10);
  buffers.count_records(5);
  buffers.count_dropped(3);
  EXPECT_EQ(buffers.records(), 15u);
  EXPECT_EQ(buffers.dropped(), 3u);
  buffers.give_back(nullptr); // CUPTI may hand back what it never got
  EXPECT_EQ(buffers.outstanding_bytes(), 0u);
}

} // namespace
} // namespace prof::cuda
