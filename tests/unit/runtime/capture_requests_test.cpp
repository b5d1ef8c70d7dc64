// Capture requests cross the shared region in order; a reader that falls
// more than the slots behind counts what it lost.
#include "core/runtime/capture_requests.hpp"

#include <prof/profiler_api.h>

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

// The agent asks capture_request_wanted() before it posts: an application's
// annotations cost no shared write unless prof waits for that range.
TEST(CaptureRequests, OnlyWhatProfWaitsForIsWanted) {
  auto header = std::make_unique<ShmHeader>();
  for (uint32_t kind = PROF_CAPTURE_START; kind <= PROF_CAPTURE_RANGE_END; ++kind)
    EXPECT_FALSE(capture_request_wanted(*header, kind, "step", "train")) << "nothing by default";

  want_capture_requests(*header, 1u << PROF_CAPTURE_START | 1u << PROF_CAPTURE_STOP, "", "");
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_START, nullptr, nullptr));
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_STOP, nullptr, nullptr));
  EXPECT_FALSE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "step", "train"));

  want_capture_requests(*header, 1u << PROF_CAPTURE_RANGE_BEGIN | 1u << PROF_CAPTURE_RANGE_END,
                        "step", "train");
  EXPECT_FALSE(capture_request_wanted(*header, PROF_CAPTURE_START, nullptr, nullptr));
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "step", "train"));
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_END, "step", "train"));
  EXPECT_FALSE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "step", nullptr));
  EXPECT_FALSE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "inner", "train"));

  want_capture_requests(*header, 1u << PROF_CAPTURE_RANGE_BEGIN, "step", "*");
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "step", nullptr));
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, "step", "io"));

  // A name longer than a slot holds is compared as it would be posted.
  const std::string long_name(500, 'n');
  want_capture_requests(*header, 1u << PROF_CAPTURE_RANGE_BEGIN, long_name, "");
  EXPECT_TRUE(capture_request_wanted(*header, PROF_CAPTURE_RANGE_BEGIN, long_name.c_str(), ""));
}

} // namespace
} // namespace prof::core
