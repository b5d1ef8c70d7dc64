// Numbers every activity and event of one device's engine instances 0..N-1,
// so a capture's selection is a bitmap per device and a record's check is
// one lookup. An engine's items are its activities, or its events when it
// has no activities (no engine of the model has both).
#ifndef PROF_GCUSIM_ITEM_SLOTS_HPP
#define PROF_GCUSIM_ITEM_SLOTS_HPP

#include "topology.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace prof::gcusim {

class ItemSlots {
public:
  explicit ItemSlots(const prof_gcu_topology &topology);

  /// Slots per device.
  uint32_t slot_count() const noexcept { return slot_count_; }
  /// Slot of an item already known to be in range.
  uint32_t slot(uint32_t group_index, uint32_t engine, uint32_t engine_index,
                uint32_t item) const noexcept {
    const EngineSlots &e = engines_[engine];
    return e.base + (group_index * e.instances_per_group + engine_index) * e.items + item;
  }
  /// The reason `item` does not name an item of the topology, or "" when it does.
  std::string check(const prof_gcu_item &item) const;

private:
  struct EngineSlots {
    uint32_t base = 0;
    uint32_t instances_per_group = 0;
    uint32_t items = 0;
  };
  const prof_gcu_topology &topology_;
  std::array<EngineSlots, kEngineCount> engines_{};
  uint32_t slot_count_ = 0;
};

} // namespace prof::gcusim

#endif
