#include "item_slots.hpp"

#include <string>

namespace prof::gcusim {

ItemSlots::ItemSlots(const prof_gcu_topology &topology) : topology_(topology) {
  for (uint32_t e = 0; e < topology.engine_count && e < kEngineCount; ++e) {
    const prof_gcu_engine_desc &desc = topology.engines[e];
    uint32_t groups = desc.group < 0 ? 1 : topology.groups[desc.group].count;
    EngineSlots &slots = engines_[e];
    slots.base = slot_count_;
    slots.instances_per_group = desc.count;
    slots.items = desc.activity_count > 0 ? desc.activity_count : desc.event_count;
    slot_count_ += groups * desc.count * slots.items;
  }
}

std::string ItemSlots::check(const prof_gcu_item &item) const {
  using std::to_string;
  if (item.device >= topology_.device_count)
    return "device " + to_string(item.device) + " out of range (" +
           to_string(topology_.device_count) + " devices)";
  if (item.engine >= topology_.engine_count)
    return "engine " + to_string(item.engine) + " out of range (" +
           to_string(topology_.engine_count) + " engines)";
  const prof_gcu_engine_desc &desc = topology_.engines[item.engine];
  std::string engine = desc.name;
  if (item.group != desc.group)
    return "group " + to_string(item.group) + " does not hold engine " + engine + " (group " +
           to_string(desc.group) + ")";
  uint32_t groups = desc.group < 0 ? 1 : topology_.groups[desc.group].count;
  if (item.group_index >= groups)
    return "group_index " + to_string(item.group_index) + " out of range for " + engine + " (" +
           to_string(groups) + " instances of its group)";
  if (item.engine_index >= desc.count)
    return "engine_index " + to_string(item.engine_index) + " out of range for " + engine + " (" +
           to_string(desc.count) + " per group instance)";
  uint32_t items = engines_[item.engine].items;
  if (item.item >= items)
    return "item " + to_string(item.item) + " out of range for " + engine + " (" +
           to_string(items) + (desc.activity_count > 0 ? " activities)" : " events)");
  return {};
}

} // namespace prof::gcusim
