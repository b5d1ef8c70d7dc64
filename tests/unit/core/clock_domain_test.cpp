#include "core/catalog/clock_domain.hpp"
#include "core/runtime/session_clock.hpp"

#include <gtest/gtest.h>

using prof::core::ClockDomain;
using prof::core::ClockDomainRegistry;

TEST(ClockDomain, UsesTheNominalFrequencyWithoutCalibration) {
  ClockDomain domain("dev", 1e6); // 1 tick = 1000 ns
  EXPECT_EQ(domain.to_session_ns(5), 5000u);
}

TEST(ClockDomain, OnePairGivesTheOffset) {
  ClockDomain domain("dev", 1e6);
  domain.add_calibration(100, 1'000'000);
  EXPECT_EQ(domain.to_session_ns(100), 1'000'000u);
  EXPECT_EQ(domain.to_session_ns(110), 1'010'000u);
  EXPECT_EQ(domain.to_session_ns(90), 990'000u);
}

TEST(ClockDomain, TwoPairsCorrectDrift) {
  // The device clock runs 0.1% fast: 1'001'000 ticks per session second.
  ClockDomain domain("dev", 1e6);
  domain.add_calibration(0, 5'000'000'000);
  domain.add_calibration(1'001'000, 6'000'000'000);
  EXPECT_EQ(domain.to_session_ns(500'500), 5'500'000'000u);
  // Extrapolated beyond the last pair with the same drift.
  EXPECT_EQ(domain.to_session_ns(2'002'000), 7'000'000'000u);
}

// A source that calibrates ten times a second for a day: the pairs stay
// within the bound, the first and the latest are kept, the recent ones
// dense, and a clock with a steady drift converts as exactly as before.
TEST(ClockDomain, ADaysPairsStayWithinTheBoundAndFollowTheDrift) {
  ClockDomain domain("dev", 1e9);
  const auto ticks_at = [](uint64_t ns) { return ns + ns / 1000; }; // 0.1% fast
  constexpr uint64_t kStep = 100'000'000, kDay = 86'400'000'000'000;
  for (uint64_t ns = 0; ns <= kDay; ns += kStep)
    domain.add_calibration(ticks_at(ns), ns);
  const auto pairs = domain.calibration();
  EXPECT_LE(pairs.size(), ClockDomain::kMostPairs);
  EXPECT_GE(pairs.size(), ClockDomain::kMostPairs / 2);
  EXPECT_EQ(pairs.front().second, 0u);
  EXPECT_EQ(pairs.back().second, kDay);
  EXPECT_EQ(pairs[pairs.size() - 2].second, kDay - kStep) << "the latest pairs stay dense";
  for (const uint64_t ns : {uint64_t{12'345'678'000}, kDay / 3, kDay - 50'000'000})
    EXPECT_EQ(domain.to_session_ns(ticks_at(ns)), ns);
}

TEST(ClockDomain, InterpolatesPiecewiseBetweenNeighbours) {
  ClockDomain domain("dev", 1e9);
  domain.add_calibration(0, 0);
  domain.add_calibration(1000, 2000); // slope 2
  domain.add_calibration(2000, 2500); // slope 0.5
  EXPECT_EQ(domain.to_session_ns(500), 1000u);
  EXPECT_EQ(domain.to_session_ns(1500), 2250u);
  EXPECT_EQ(domain.to_session_ns(3000), 3000u);
}

TEST(ClockDomain, NeverWrapsBelowZero) {
  ClockDomain domain("dev", 1e9);
  domain.add_calibration(1'000'000, 10);
  EXPECT_EQ(domain.to_session_ns(0), 0u);
}

TEST(ClockDomain, AMeasuredRateIsAskedForOnlyWhenNeeded) {
  static int asked = 0;
  ClockDomain domain("dev", [] {
    ++asked;
    return 1e6;
  });
  domain.add_calibration(0, 0);
  domain.add_calibration(1000, 2000);
  EXPECT_EQ(domain.to_session_ns(500), 1000u);
  EXPECT_EQ(asked, 0) << "two pairs give the rate";
  ClockDomain single("dev", [] {
    ++asked;
    return 1e6;
  });
  single.add_calibration(100, 1'000'000);
  EXPECT_EQ(single.to_session_ns(110), 1'010'000u);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(single.frequency_hz(), 1e6);
}

TEST(ClockDomainRegistry, SessionAndTscAreBuiltIn) {
  ClockDomainRegistry clocks;
  EXPECT_EQ(clocks.find(PROF_CLOCK_SESSION), nullptr);
  ASSERT_NE(clocks.find(PROF_CLOCK_TSC), nullptr);
  EXPECT_EQ(clocks.to_session_ns(PROF_CLOCK_SESSION, 1234), 1234u);
  const uint64_t before = prof::core::session_now_ns();
  const uint64_t tsc = prof::core::tsc_now();
  const uint64_t after = prof::core::session_now_ns();
  const uint64_t converted = clocks.to_session_ns(PROF_CLOCK_TSC, tsc);
  // Within 1 ms of the bracketing reads: a calibrated TSC agrees with the clock.
  EXPECT_GT(converted + 1'000'000, before);
  EXPECT_LT(converted, after + 1'000'000);
  // The rate, measured when first asked for, is a plausible TSC's.
  const double hz = clocks.find(PROF_CLOCK_TSC)->frequency_hz();
  EXPECT_GT(hz, 1e8);
  EXPECT_LT(hz, 1e11);
}

TEST(ClockDomainRegistry, RefusesBadDomains) {
  ClockDomainRegistry clocks;
  EXPECT_EQ(clocks.add("", 1e9), 0u);
  EXPECT_EQ(clocks.add("dev", 0), 0u);
  EXPECT_EQ(clocks.add("dev", -5), 0u);
  EXPECT_EQ(clocks.add("dev", 1e9), 2u);
}
