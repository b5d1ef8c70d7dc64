#include "core/report/recent_times.hpp"

#include <gtest/gtest.h>

namespace prof::report {
namespace {

TEST(RecentTimes, ATimeSeenAgainSaysHowLongAgo) {
  RecentTimes recent;
  EXPECT_EQ(recent.see(100), 0);
  EXPECT_EQ(recent.see(100), 1);
  EXPECT_EQ(recent.see(200), 0);
  EXPECT_EQ(recent.see(300), 0);
  EXPECT_EQ(recent.see(100), 3); // the latest add of 100, not the first
  ASSERT_TRUE(recent.holds(3));
  EXPECT_EQ(recent.at(1), 100u);
  EXPECT_EQ(recent.at(2), 300u);
  EXPECT_EQ(recent.at(3), 200u);
}

TEST(RecentTimes, TheWindowHoldsTheLastTimes) {
  RecentTimes recent;
  for (uint64_t t = 1; t <= RecentTimes::kSize + 1; ++t)
    recent.see(t * 1000);
  EXPECT_TRUE(recent.holds(RecentTimes::kSize));
  EXPECT_FALSE(recent.holds(RecentTimes::kSize + 1));
  EXPECT_FALSE(recent.holds(0));
  EXPECT_EQ(recent.at(RecentTimes::kSize), 2000u);
  EXPECT_EQ(recent.see(1000), 0);                  // added kSize + 1 adds ago: gone
  EXPECT_EQ(recent.see(3000), RecentTimes::kSize); // the oldest still in the window
}

TEST(RecentTimes, ReadersAddingSeeTheSameAges) {
  RecentTimes writer, reader;
  const uint64_t times[] = {5, 9, 5, 5, 7, 9, 0, ~0ull, 0};
  for (const uint64_t t : times) {
    const uint8_t age = writer.see(t);
    if (age != 0) {
      ASSERT_TRUE(reader.holds(age));
      EXPECT_EQ(reader.at(age), t);
    }
    reader.add(t);
  }
}

TEST(RecentTimes, ClearForgetsEverything) {
  RecentTimes recent;
  recent.see(42);
  recent.clear();
  EXPECT_FALSE(recent.holds(1));
  EXPECT_EQ(recent.see(42), 0);
}

} // namespace
} // namespace prof::report
