// BusyTimeline: the union of intervals, idle gaps and windowed busy time,
// exact on constructed timelines and against a brute-force union.
#include <prof/stats/busy_timeline.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace prof::stats {
namespace {

using Periods = std::vector<Period>;

TEST(BusyTimeline, UnionOfOverlappingNestedAndAbuttingSlices) {
  BusyTimeline t;
  t.add(50, 60);
  t.add(10, 20);
  t.add(15, 30); // overlaps
  t.add(30, 40); // abuts
  t.add(12, 14); // nested
  t.add(45, 45); // empty: ignored
  t.add(70, 65); // backwards: ignored
  EXPECT_EQ(t.periods(), (Periods{{10, 40}, {50, 60}}));
  EXPECT_EQ(t.busy(), 40u);
}

TEST(BusyTimeline, GapsAreThoseStrictlyLongerThanTheThreshold) {
  BusyTimeline t;
  for (auto [b, e] : {std::pair{0, 10}, {20, 30}, {45, 50}, {100, 110}})
    t.add(b, e);
  EXPECT_EQ(t.gaps(10), (Periods{{30, 45}, {50, 100}}));
  EXPECT_EQ(t.gaps(15), (Periods{{50, 100}}));
  EXPECT_EQ(t.gaps(0), (Periods{{10, 20}, {30, 45}, {50, 100}}));
  EXPECT_TRUE(t.gaps(50).empty());
}

TEST(BusyTimeline, UtilizationSplitsPeriodsAcrossWindows) {
  BusyTimeline t;
  t.add(110, 130);
  t.add(150, 160);
  t.add(170, 260); // spans windows 2 to 6
  const auto windows = t.utilization(100, 290, 25);
  ASSERT_EQ(windows.size(), 8u); // the last one cut at 290
  const uint64_t busy[] = {15, 5, 15, 25, 25, 25, 10, 0};
  for (size_t i = 0; i < windows.size(); ++i) {
    EXPECT_EQ(windows[i].begin, 100 + 25 * i);
    EXPECT_EQ(windows[i].busy, busy[i]) << "window " << i;
  }
  EXPECT_EQ(windows.back().end, 290u);
}

TEST(BusyTimeline, UtilizationIgnoresTimeOutsideTheSpan) {
  BusyTimeline t;
  t.add(0, 1000);
  const auto windows = t.utilization(100, 300, 100);
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].busy, 100u);
  EXPECT_EQ(windows[1].busy, 100u);
  EXPECT_TRUE(t.utilization(300, 300, 100).empty());
}

// Brute force: mark every ns.
Periods union_of(const std::vector<Period> &slices, uint64_t span) {
  std::vector<bool> busy(span, false);
  for (const Period &p : slices)
    for (uint64_t t = p.begin; t < p.end; ++t)
      busy[t] = true;
  Periods out;
  for (uint64_t t = 0; t < span; ++t) {
    if (!busy[t]) continue;
    if (!out.empty() && out.back().end == t)
      out.back().end = t + 1;
    else
      out.push_back({t, t + 1});
  }
  return out;
}

TEST(BusyTimeline, ManyRandomSlicesInAnyOrderAndMergedTimelinesMatchBruteForce) {
  std::mt19937 random(7);
  constexpr uint64_t kSpan = 3'000'000;
  std::vector<Period> slices;
  for (int i = 0; i < 150'000; ++i) { // more than one pending batch
    const uint64_t begin = random() % kSpan;
    slices.push_back({begin, std::min(kSpan, begin + random() % 20)});
  }
  BusyTimeline whole, left, right;
  for (size_t i = 0; i < slices.size(); ++i) {
    whole.add(slices[i].begin, slices[i].end);
    (i % 3 == 0 ? left : right).add(slices[i].begin, slices[i].end);
  }
  left.merge(right);
  const Periods expected = union_of(slices, kSpan);
  EXPECT_EQ(whole.periods(), expected);
  EXPECT_EQ(left.periods(), expected);
  uint64_t total = 0;
  for (const auto &w : whole.utilization(0, kSpan, 1'000'000))
    total += w.busy;
  EXPECT_EQ(total, whole.busy());
}

TEST(BusyTimeline, JoiningShortGapsKeepsTheLongOnesExact) {
  std::mt19937 random(11);
  BusyTimeline exact, joined(500);
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t begin = random() % 10'000'000;
    const uint64_t end = begin + random() % 400;
    exact.add(begin, end);
    joined.add(begin, end);
  }
  EXPECT_EQ(joined.gaps(500), exact.gaps(500));
  EXPECT_EQ(joined.gaps(2000), exact.gaps(2000));
  EXPECT_LT(joined.periods().size(), exact.periods().size());
}

} // namespace
} // namespace prof::stats
