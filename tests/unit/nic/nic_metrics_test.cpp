// Rate and packet-size math of the nic source, counter wraps and resets.
#include "nic_metrics.hpp"

#include <gtest/gtest.h>

namespace prof::nic {
namespace {

constexpr uint64_t kSecond = 1'000'000'000;

TEST(NicCounterDelta, GrowsWrapsResetsAndSaturates) {
  EXPECT_EQ(counter_delta(100, 350), 250u);
  EXPECT_EQ(counter_delta(7, 7), 0u);
  // A 32-bit counter near its top that goes down wrapped.
  EXPECT_EQ(counter_delta(4294967000u, 200), 496u);
  EXPECT_EQ(counter_delta(4294967295u, 0), 1u);
  // Low values going down, or 64-bit values: the counter was reset.
  EXPECT_EQ(counter_delta(5000, 100), 100u);
  EXPECT_EQ(counter_delta(10'000'000'000ull, 42), 42u);
  // A saturated IB counter says nothing.
  EXPECT_EQ(counter_delta(4294967295u, 4294967295u), std::nullopt);
  // 64-bit counters may pass the 32-bit maximum.
  EXPECT_EQ(counter_delta(4294967295u, 4294967296ull), 1u);
}

TEST(NicDeriveMetrics, RatesAndAveragePacketSizes) {
  CounterSet before{}, after{};
  before[kRxBytes] = 1000, after[kRxBytes] = 1000 + 3'000'000;
  before[kTxBytes] = 50, after[kTxBytes] = 50 + 150'000;
  before[kRxPackets] = 10, after[kRxPackets] = 10 + 2000;
  before[kTxPackets] = 3, after[kTxPackets] = 3;
  const MetricSet m = derive_metrics(before, after, kSecond / 2);
  EXPECT_DOUBLE_EQ(*m[kRxRate], 6'000'000.0);
  EXPECT_DOUBLE_EQ(*m[kTxRate], 300'000.0);
  EXPECT_DOUBLE_EQ(*m[kRxPacketSize], 1500.0);
  EXPECT_DOUBLE_EQ(*m[kTxPacketSize], 0.0) << "no packets: size 0";
  EXPECT_FALSE(m[kCnpSendRate]);
  EXPECT_FALSE(m[kCnpHandleRate]);
  EXPECT_FALSE(m[kSendWait]);
}

TEST(NicDeriveMetrics, RdmaDataCountsWordsAndCnpsAndWait) {
  CounterSet before{}, after{};
  before[kRxBytes] = 0, after[kRxBytes] = 250;              // 1000 bytes
  before[kTxBytes] = 4294967295u - 9, after[kTxBytes] = 15; // wrapped by 25 words
  before[kRxPackets] = 0, after[kRxPackets] = 4;
  before[kTxPackets] = 0, after[kTxPackets] = 5;
  before[kCnpSent] = 1, after[kCnpSent] = 21;
  before[kCnpHandled] = 0, after[kCnpHandled] = 7;
  before[kXmitWait] = 100, after[kXmitWait] = 1100;
  const MetricSet m = derive_metrics(before, after, 2 * kSecond, 4);
  EXPECT_DOUBLE_EQ(*m[kRxRate], 500.0);
  EXPECT_DOUBLE_EQ(*m[kTxRate], 50.0);
  EXPECT_DOUBLE_EQ(*m[kRxPacketSize], 250.0);
  EXPECT_DOUBLE_EQ(*m[kTxPacketSize], 20.0);
  EXPECT_DOUBLE_EQ(*m[kCnpSendRate], 10.0);
  EXPECT_DOUBLE_EQ(*m[kCnpHandleRate], 3.5);
  EXPECT_DOUBLE_EQ(*m[kSendWait], 500.0);
}

TEST(NicDeriveMetrics, AbsentCountersAndNoTimeGiveNothing) {
  CounterSet before{}, after{};
  after[kRxBytes] = 10; // absent before
  EXPECT_FALSE(derive_metrics(before, after, kSecond)[kRxRate]);
  before[kRxBytes] = 0;
  EXPECT_FALSE(derive_metrics(before, after, 0)[kRxRate]);
}

TEST(NicMetricInfo, NamesAndUnits) {
  EXPECT_STREQ(metric_info(kRxRate).track_name, "RX rate");
  EXPECT_STREQ(metric_info(kRxRate).unit, "bytes/s");
  EXPECT_STREQ(metric_info(kTxPacketSize).track_name, "TX avg packet size");
  EXPECT_STREQ(metric_info(kTxPacketSize).unit, "bytes");
  EXPECT_STREQ(metric_info(kCnpSendRate).unit, "/s");
  EXPECT_STREQ(metric_info(kSendWait).track_name, "Send wait");
}

} // namespace
} // namespace prof::nic
