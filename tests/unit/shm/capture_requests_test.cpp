// Capture requests cross the shared region in order; a reader that falls
// more than the slots behind counts what it lost.
#include "core/capture_requests.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace prof::core {
namespace {

TEST(CaptureRequests, ArriveInOrderWithTheirFields) {
  auto header = std::make_unique<ShmHeader>();
  CaptureRequestReader reader(*header);
  EXPECT_TRUE(reader.take().empty());
  post_capture_request(*header, {1, 42, 1000, "", ""});
  post_capture_request(*header, {3, 42, 2000, "DoProcess", "train"});
  const auto requests = reader.take();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].kind, 1u);
  EXPECT_EQ(requests[0].ts, 1000u);
  EXPECT_EQ(requests[1].name, "DoProcess");
  EXPECT_EQ(requests[1].domain, "train");
  EXPECT_EQ(requests[1].pid, 42);
  EXPECT_TRUE(reader.take().empty());
}

TEST(CaptureRequests, LongNamesAreCutAndOverrunsCounted) {
  auto header = std::make_unique<ShmHeader>();
  CaptureRequestReader reader(*header);
  post_capture_request(*header, {3, 1, 1, std::string(500, 'n'), std::string(100, 'd')});
  const auto one = reader.take();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name.size(), sizeof(CaptureRequestSlot::name) - 1);
  EXPECT_EQ(one[0].domain.size(), sizeof(CaptureRequestSlot::domain) - 1);
  for (uint64_t i = 0; i < kCaptureRequestSlots + 10; ++i)
    post_capture_request(*header, {1, 1, i, "", ""});
  const auto kept = reader.take();
  EXPECT_EQ(kept.size(), kCaptureRequestSlots);
  EXPECT_EQ(kept.front().ts, 10u);
  EXPECT_EQ(reader.lost(), 10u);
}

} // namespace
} // namespace prof::core
