// The raw counters the nic source reads per device and the metrics it
// derives from two readings of them, independent of where they come from.
#ifndef PROF_PLUGINS_NIC_METRICS_HPP
#define PROF_PLUGINS_NIC_METRICS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace prof::nic {

/// Raw counters of one device, as the kernel shows them (RDMA port data
/// counters count 4-byte words: see derive_metrics).
enum Counter : size_t {
  kRxBytes,
  kTxBytes,
  kRxPackets,
  kTxPackets,
  kCnpSent,    ///< hw_counters/np_cnp_sent: CNPs this port sent as notification point
  kCnpHandled, ///< hw_counters/rp_cnp_handled: CNPs this port handled as reaction point
  kXmitWait,   ///< counters/port_xmit_wait: ticks with data to send but no credit
  kCounterCount
};
/// A reading: a counter is absent when the device does not have it.
using CounterSet = std::array<std::optional<uint64_t>, kCounterCount>;

/// What the source emits per device, one counter track each.
enum Metric : size_t {
  kRxRate,        ///< bytes/s received
  kTxRate,        ///< bytes/s sent
  kRxPacketSize,  ///< average received packet, bytes
  kTxPacketSize,  ///< average sent packet, bytes
  kCnpSendRate,   ///< CNPs sent per second
  kCnpHandleRate, ///< CNPs handled per second
  kSendWait,      ///< send-wait ticks per second
  kMetricCount
};
using MetricSet = std::array<std::optional<double>, kMetricCount>;

/// Track name and unit of a metric.
struct MetricInfo {
  const char *track_name;
  const char *unit;
};
const MetricInfo &metric_info(Metric metric);

/// How much a counter grew from `before` to `after`. A 32-bit counter stuck
/// at its maximum (IB counters saturate) tells nothing: nullopt. A counter
/// that went down wrapped if it was in the top half of the 32-bit range,
/// else it was reset and counted `after` since.
std::optional<uint64_t> counter_delta(uint64_t before, uint64_t after);

/// Metrics over `elapsed_ns` between two readings of one device; a metric
/// is absent when a counter it needs is absent in either reading. An
/// average packet size over no packets is 0. kRxBytes and kTxBytes count
/// units of `data_unit_bytes` (4 for InfiniBand port_rcv_data/port_xmit_data).
MetricSet derive_metrics(const CounterSet &before, const CounterSet &after, uint64_t elapsed_ns,
                         uint32_t data_unit_bytes = 1);

} // namespace prof::nic

#endif
