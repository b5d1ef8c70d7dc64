// One tick of the nic source: reads every kept device and derives its
// metrics from the previous tick, independent of the plugin ABI.
#ifndef PROF_PLUGINS_NIC_SAMPLER_HPP
#define PROF_PLUGINS_NIC_SAMPLER_HPP

#include "device_filter.hpp"
#include "device_reader.hpp"
#include "nic_metrics.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prof::nic {

/// Where netdev counters come from. /proc/net/dev is one read for every
/// interface; sysfs is four reads per interface (see docs/performance.md).
enum class NetdevStats { kProc, kSysfs };

struct SamplerOptions {
  std::string sysfs_root = "/sys";
  NetdevStats netdev_stats = NetdevStats::kProc;
  std::string proc_net_dev = "/proc/net/dev";
  /// How often devices that came or went are looked for.
  uint64_t rescan_interval_ns = 1'000'000'000;
};

/// Metrics of one device at one tick. `name` stays valid until the next take().
struct DeviceMetrics {
  std::string_view name;
  MetricSet metrics;
};

class NicSampler {
public:
  NicSampler(DeviceFilter filter, SamplerOptions options);

  /// Why the netdev counters cannot be read, nullopt when they can.
  std::optional<std::string> open_error() const { return open_error_; }

  /// Reads every kept device at `now_ns` and fills `out` (cleared first)
  /// with the metrics of those also read at the previous tick. Returns how
  /// many devices were read.
  size_t take(uint64_t now_ns, std::vector<DeviceMetrics> &out);
  /// Forgets the previous tick (after a pause): the next take() only primes.
  void reset();

  /// Every device the readers saw last, kept or not: "eth0", "mlx5_0 (rdma)".
  std::vector<std::string> all_names() const;
  const DeviceFilter &filter() const { return filter_; }

private:
  struct DeviceState {
    CounterSet counters;
    uint64_t ns = 0;
    uint64_t round = 0; ///< tick of the reading held
  };

  DeviceFilter filter_;
  SamplerOptions options_;
  std::unique_ptr<DeviceReader> netdev_;
  std::unique_ptr<DeviceReader> rdma_;
  std::optional<std::string> open_error_;
  std::optional<uint64_t> last_rescan_ns_;
  uint64_t round_ = 2; ///< ticks start above any forgotten state's round + 1
  std::vector<DeviceReading> readings_;
  std::map<std::string, DeviceState, std::less<>> states_;
};

} // namespace prof::nic

#endif
