// A safe, indexed view of the driver's prof_gcu_topology: null arrays and
// names read as empty, engines of an unknown group are left out.
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

/// Group index of the engines that sit directly in the device (General, TS).
inline constexpr int32_t kDeviceGroup = -1;

/// The device tree in printing order: each group with its engines (in table
/// order), then the device's own engines. Borrows the topology's strings.
class DeviceTree {
public:
  explicit DeviceTree(const prof_gcu_topology &topology);

  uint32_t device_count() const { return topology_.device_count; }

  uint32_t group_count() const { return group_count_; }
  std::string_view group_name(uint32_t group) const;
  uint32_t group_instances(uint32_t group) const;

  uint32_t engine_count() const { return engine_count_; }
  /// Engines of `group` (kDeviceGroup for the device's own) in table order.
  const std::vector<uint32_t> &engines_in(int32_t group) const;
  std::string_view engine_name(uint32_t engine) const;
  int32_t engine_group(uint32_t engine) const;
  uint32_t engine_instances(uint32_t engine) const;
  /// Whether the engine belongs to a known group or to the device.
  bool engine_listed(uint32_t engine) const;

  uint32_t item_count(uint32_t engine, ItemKind kind) const;
  std::string_view item_name(uint32_t engine, ItemKind kind, uint32_t item) const;

  uint32_t domain_count() const { return domain_count_; }
  std::string_view domain_name(uint32_t domain) const;
  uint32_t function_count(uint32_t domain) const;
  std::string_view function_name(uint32_t domain, uint32_t function) const;

  /// Every item of `kind` on every device, in tree order.
  std::vector<prof_gcu_item> all_items(ItemKind kind) const;
  /// Every function of every API domain.
  std::vector<prof_gcu_api_item> all_apis() const;

  /// "Device0/Cluster1/SIP2/SIP Busy", "Device1/TS0/TS ISR".
  std::string describe(const prof_gcu_item &item, ItemKind kind) const;
  /// "Api Trace/RUNTIME/gcuMalloc".
  std::string describe(const prof_gcu_api_item &api) const;

private:
  const prof_gcu_topology &topology_;
  uint32_t group_count_ = 0;
  uint32_t engine_count_ = 0;
  uint32_t domain_count_ = 0;
  std::vector<std::vector<uint32_t>> group_engines_; // [group_count] = the device's own
};

/// Never null: "" for a null C string.
inline std::string_view text_of(const char *s) {
  return s ? std::string_view(s) : std::string_view();
}

} // namespace prof::activity
