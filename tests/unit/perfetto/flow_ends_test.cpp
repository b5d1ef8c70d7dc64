// FlowEnds: which correlation ids of device work become flow ids, and the
// bounds of what it remembers.
#include "flow_ends.hpp"

#include <prof/testing/test_events.hpp>

#include <gtest/gtest.h>

namespace prof::perfetto {
namespace {

prof_event work(uint64_t id, prof_track_id track = 3, uint64_t ts = 100, prof_string_id name = 5) {
  return testing::slice(track, ts, 10, name, 0, id);
}

TEST(FlowEnds, WorkKeepsItsIdOnlyAfterACallHadIt) {
  FlowEnds flows;
  EXPECT_FALSE(flows.work(work(1)));
  EXPECT_FALSE(flows.call(2).has_value());
  EXPECT_TRUE(flows.work(work(2)));
  EXPECT_TRUE(flows.work(work(2))); // a graph's kernels share their launch's id
}

TEST(FlowEnds, WorkBeforeItsCallIsGivenToTheCallOnce) {
  FlowEnds flows;
  EXPECT_FALSE(flows.work(work(7, 9, 1234, 42)));
  const auto early = flows.call(7);
  ASSERT_TRUE(early.has_value());
  EXPECT_EQ(early->track, 9u);
  EXPECT_EQ(early->ts, 1234u);
  EXPECT_EQ(early->name, 42u);
  EXPECT_FALSE(flows.call(7).has_value());
}

TEST(FlowEnds, TheOldestCallsAreForgottenPastTheBound) {
  FlowEnds flows;
  flows.call(1);
  const uint64_t bound = FlowEnds::kCallSets * FlowEnds::kWays;
  for (uint64_t id = 2; id < 4 * bound; ++id)
    flows.call(id);
  EXPECT_FALSE(flows.work(work(1)));
  EXPECT_TRUE(flows.work(work(4 * bound - 1)));
}

} // namespace
} // namespace prof::perfetto
