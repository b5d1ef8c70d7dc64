// What the nic sampler reads devices through: /proc/net/dev, the sysfs
// netdev statistics, or the sysfs RDMA port counters.
#ifndef PROF_PLUGINS_NIC_DEVICE_READER_HPP
#define PROF_PLUGINS_NIC_DEVICE_READER_HPP

#include "nic_metrics.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::nic {

/// One kept device at one read. `name` stays valid until the reader's next
/// rescan() or read().
struct DeviceReading {
  std::string_view name; ///< track name: "eth0", "mlx5_0 port 1"
  CounterSet counters;
  uint32_t data_unit_bytes = 1; ///< what kRxBytes/kTxBytes count in
};

class DeviceReader {
public:
  virtual ~DeviceReader() = default;
  /// Looks for devices that came or went; a reader that sees them at every
  /// read does nothing.
  virtual void rescan() = 0;
  /// Appends a reading of every kept device present now to `out`. A device
  /// that vanished since the last rescan is left out.
  virtual void read(std::vector<DeviceReading> &out) = 0;
  /// Every device seen by the last rescan or read, kept or not (for messages).
  virtual std::vector<std::string> all_names() const = 0;
};

} // namespace prof::nic

#endif
