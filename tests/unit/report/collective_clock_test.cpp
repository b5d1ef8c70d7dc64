// A rank's clock against another's, fitted on the ends of the collective
// operations they share: the offset, a drift where there is one, lateness
// never taken for an offset, and too few operations refused.
#include "core/report/collective_clock.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace prof::report {
namespace {

constexpr uint64_t kMs = 1'000'000;

// Operation n starts at n x 100 ms on the true clock and lasts 10 ms; the
// rank's clock reads true + `offset` + `drift` x true. Operation 7 waits
// 300 ms for a late rank, which is this one when `late`.
CollectiveTimes rank(int operations, int64_t offset, double drift = 0, bool late = false) {
  CollectiveTimes times;
  const auto own = [&](uint64_t t) {
    return static_cast<uint64_t>(static_cast<int64_t>(t) + offset +
                                 static_cast<int64_t>(drift * static_cast<double>(t)));
  };
  for (int n = 1; n <= operations; ++n) {
    const uint64_t begin = static_cast<uint64_t>(n) * 100 * kMs;
    const uint64_t wait = n == 7 ? 300 * kMs : 0;
    times.calls["world\t" + std::to_string(n)] = {own(begin + (late ? wait : 0)),
                                                  own(begin + wait + 10 * kMs)};
  }
  return times;
}

TEST(CollectiveClock, TheOffsetIsTheEndsDifference) {
  const auto fit = fit_clock(rank(30, 0), rank(30, -40 * kMs));
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->offset, static_cast<int64_t>(40 * kMs));
  EXPECT_EQ(fit->drift, 0);
  EXPECT_EQ(fit->error, 0u);
  EXPECT_EQ(fit->shared, 30u);
}

TEST(CollectiveClock, ALateArrivalIsNotAnOffset) {
  // 300 ms late to operation 7: the others waited for it, and all left together.
  const auto fit = fit_clock(rank(30, 0), rank(30, 25 * kMs, 0, true));
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->offset, -static_cast<int64_t>(25 * kMs));
  EXPECT_EQ(fit->drift, 0);
}

TEST(CollectiveClock, ADriftingClockIsFollowed) {
  // 50 us gained per second, over 6 s.
  const auto fit = fit_clock(rank(60, 0), rank(60, 7 * kMs, 50e-6));
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->drift, -50e-6, 1e-6);
  for (uint64_t t : {100 * kMs, 3000 * kMs, 6000 * kMs}) {
    const uint64_t own = t + 7 * kMs + static_cast<uint64_t>(50e-6 * static_cast<double>(t));
    EXPECT_NEAR(static_cast<double>(static_cast<int64_t>(own) + fit->at(own)),
                static_cast<double>(t), 2000.0)
        << t;
  }
}

TEST(CollectiveClock, FewerThanThreeSharedOperationsGiveNoFit) {
  EXPECT_FALSE(fit_clock(rank(2, 0), rank(30, kMs)).has_value());
  CollectiveTimes other;
  other.calls["pair\t1"] = {1, 2};
  EXPECT_FALSE(fit_clock(rank(30, 0), other).has_value());
}

TEST(CollectiveClock, OperationsOverlapOnlyWhenTheClocksAgree) {
  const CollectiveTimes reference = rank(30, 0), skewed = rank(30, 5000 * kMs);
  const auto fit = fit_clock(reference, skewed);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(overlapping_share(reference, skewed, *fit), 1.0);
  ClockFit none;
  EXPECT_EQ(overlapping_share(reference, skewed, none), 0.0);
}

} // namespace
} // namespace prof::report
