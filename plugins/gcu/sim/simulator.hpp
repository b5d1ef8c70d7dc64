// The whole model, created on first use by any driver or runtime call and
// never destroyed: its threads may run until the process ends, and a
// profiler may still flush from its own exit path.
#ifndef PROF_GCUSIM_SIMULATOR_HPP
#define PROF_GCUSIM_SIMULATOR_HPP

#include "capture_registry.hpp"
#include "device.hpp"
#include "item_slots.hpp"
#include "label_table.hpp"
#include "sim_settings.hpp"

#include <atomic>
#include <memory>
#include <vector>

namespace prof::gcusim {

class Simulator {
public:
  static Simulator &instance();

  const SimSettings &settings() const noexcept { return settings_; }
  const prof_gcu_topology &topology() const noexcept { return topology_; }
  uint32_t device_count() const noexcept { return settings_.device_count; }
  Device &device(uint32_t index) { return *devices_[index]; }
  LabelTable &labels() noexcept { return labels_; }
  CaptureRegistry &captures() noexcept { return captures_; }

  /// A new API call's correlation id (1, 2, ...).
  uint64_t next_correlation_id() noexcept { return next_correlation_.fetch_add(1) + 1; }
  /// A new kernel launch's op id (1, 2, ...).
  uint64_t next_op_id() noexcept { return next_op_.fetch_add(1) + 1; }
  /// A new stream's id (1, 2, ...).
  uint32_t next_stream_id() noexcept { return next_stream_.fetch_add(1) + 1; }

private:
  Simulator();

  const SimSettings settings_;
  const prof_gcu_topology &topology_;
  const ItemSlots slots_;
  LabelTable labels_;
  CaptureRegistry captures_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::atomic<uint64_t> next_correlation_{0};
  std::atomic<uint64_t> next_op_{0};
  std::atomic<uint32_t> next_stream_{0};
};

} // namespace prof::gcusim

#endif
