// The flow between an API call and its device work: emitted once both ends
// are known, whichever comes first, and never half.
#include <prof/flow_matcher.hpp>

#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

namespace prof::gcu {
namespace {

using testing::FakeSourceHost;

class FlowMatcherTest : public ::testing::Test {
protected:
  FakeSourceHost fake_{0, testing::HostAbi::current};
  Host host_{fake_.api(), &fake_};
};

TEST_F(FlowMatcherTest, EitherEndMayArriveFirst) {
  FlowMatcher flows(host_);
  flows.call(7, 1, 100);
  flows.work(7, 2, 150);
  flows.work(8, 2, 300);
  flows.call(8, 1, 250);
  const auto emitted = fake_.flows();
  ASSERT_EQ(emitted.size(), 4u);
  for (size_t i = 0; i < 4; i += 2) {
    EXPECT_EQ(emitted[i].phase, PROF_FLOW_BEGIN);
    EXPECT_EQ(emitted[i].track, 1u) << "the call begins the flow";
    EXPECT_EQ(emitted[i + 1].phase, PROF_FLOW_END);
    EXPECT_EQ(emitted[i + 1].track, 2u);
    EXPECT_EQ(emitted[i].id, emitted[i + 1].id);
  }
  EXPECT_EQ(emitted[0].ts, 100u);
  EXPECT_EQ(emitted[1].ts, 150u);
  EXPECT_EQ(emitted[2].ts, 250u);
  EXPECT_EQ(emitted[3].ts, 300u);
}

TEST_F(FlowMatcherTest, AnEndWithoutPartnerEmitsNothing) {
  FlowMatcher flows(host_);
  flows.call(1, 1, 10);
  flows.work(2, 2, 20);
  flows.work(2, 2, 30); // a second record of the same work finds only its own kind
  EXPECT_TRUE(fake_.flows().empty());
}

TEST_F(FlowMatcherTest, TheOldestWaitingEndIsForgottenFirst) {
  FlowMatcher flows(host_, 2);
  flows.call(1, 1, 10);
  flows.call(2, 1, 20);
  flows.call(3, 1, 30); // forgets call 1
  flows.work(1, 2, 40);
  flows.work(3, 2, 50);
  const auto emitted = fake_.flows();
  ASSERT_EQ(emitted.size(), 2u);
  EXPECT_EQ(emitted[0].id, 3u);
  EXPECT_EQ(emitted[0].ts, 30u);
}

// What a device plugin's tests read back from the SDK's fake host: the
// category and typed arguments on a current host, the plain slice on 1.1.
TEST(FakeSourceHost, KeepsCategoriesAndArgumentsOnTheCurrentAbi) {
  for (const auto abi : {testing::HostAbi::current, testing::HostAbi::oldest}) {
    FakeSourceHost fake(0, abi);
    const Host host(fake.api(), &fake);
    const prof_arg args[] = {arg_uint(host.intern("bytes"), 4096),
                             arg_string(host.intern("direction"), host.intern("HtoD"))};
    host.slice(1, 10, 5, host.intern("copy"), host.intern("DMA"), 3, PROF_CATEGORY_MEMCPY_HTOD,
               args);
    const auto slices = fake.slices();
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].name, "copy");
    EXPECT_EQ(slices[0].correlation, 3u);
    if (abi == testing::HostAbi::current) {
      EXPECT_EQ(slices[0].kind, PROF_CATEGORY_MEMCPY_HTOD);
      EXPECT_EQ(slices[0].args.at("bytes"), "4096");
      EXPECT_EQ(slices[0].arg_types.at("bytes"), PROF_ARG_UINT);
      EXPECT_EQ(slices[0].args.at("direction"), "HtoD");
    } else {
      EXPECT_EQ(slices[0].kind, 0);
      EXPECT_TRUE(slices[0].args.empty());
    }
  }
}

} // namespace
} // namespace prof::gcu
