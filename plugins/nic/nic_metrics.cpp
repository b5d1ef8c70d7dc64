#include "nic_metrics.hpp"

#include <limits>

namespace prof::nic {
namespace {

constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();

constexpr std::array<MetricInfo, kMetricCount> kMetricInfo{{
    {"RX rate", "bytes/s"},
    {"TX rate", "bytes/s"},
    {"RX avg packet size", "bytes"},
    {"TX avg packet size", "bytes"},
    {"CNP send rate", "/s"},
    {"CNP handle rate", "/s"},
    {"Send wait", "/s"},
}};

std::optional<uint64_t> delta_of(const CounterSet &before, const CounterSet &after, Counter c) {
  if (!before[c] || !after[c]) return std::nullopt;
  return counter_delta(*before[c], *after[c]);
}

} // namespace

const MetricInfo &metric_info(Metric metric) { return kMetricInfo[metric]; }

std::optional<uint64_t> counter_delta(uint64_t before, uint64_t after) {
  if (before == kMax32 && after == kMax32) return std::nullopt;
  if (after >= before) return after - before;
  if (before <= kMax32 && before > kMax32 / 2) return (kMax32 - before) + after + 1;
  return after;
}

MetricSet derive_metrics(const CounterSet &before, const CounterSet &after, uint64_t elapsed_ns,
                         uint32_t data_unit_bytes) {
  MetricSet metrics;
  if (elapsed_ns == 0) return metrics;
  const double seconds = static_cast<double>(elapsed_ns) / 1e9;
  // Wraps are judged on the raw counter, before scaling to bytes.
  const auto scale = [&](Counter counter) {
    return counter == kRxBytes || counter == kTxBytes ? static_cast<double>(data_unit_bytes) : 1.0;
  };
  const auto rate = [&](Metric metric, Counter counter) {
    if (const auto delta = delta_of(before, after, counter))
      metrics[metric] = static_cast<double>(*delta) * scale(counter) / seconds;
  };
  const auto average = [&](Metric metric, Counter bytes, Counter packets) {
    const auto byte_delta = delta_of(before, after, bytes);
    const auto packet_delta = delta_of(before, after, packets);
    if (!byte_delta || !packet_delta) return;
    metrics[metric] = *packet_delta == 0 ? 0.0
                                         : static_cast<double>(*byte_delta) * scale(bytes) /
                                               static_cast<double>(*packet_delta);
  };
  rate(kRxRate, kRxBytes);
  rate(kTxRate, kTxBytes);
  average(kRxPacketSize, kRxBytes, kRxPackets);
  average(kTxPacketSize, kTxBytes, kTxPackets);
  rate(kCnpSendRate, kCnpSent);
  rate(kCnpHandleRate, kCnpHandled);
  rate(kSendWait, kXmitWait);
  return metrics;
}

} // namespace prof::nic
