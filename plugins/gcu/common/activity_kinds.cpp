#include "activity_kinds.hpp"

#include <cstddef>

namespace prof::gcu {

ActivityKinds::ActivityKinds(const prof_gcu_driver &driver, const prof_gcu_topology &topology)
    : driver_(driver), kinds_(topology.engine_count) {
  for (uint32_t e = 0; e < topology.engine_count; ++e)
    kinds_[e].resize(topology.engines[e].activity_count);
  if (topology.struct_size <
          offsetof(prof_gcu_topology, activity_desc_count) + sizeof(topology.activity_desc_count) ||
      topology.activity_descs == nullptr)
    return;
  for (uint32_t i = 0; i < topology.activity_desc_count; ++i) {
    const prof_gcu_activity_desc &d = topology.activity_descs[i];
    if (d.engine < kinds_.size() && d.activity < kinds_[d.engine].size())
      kinds_[d.engine][d.activity] = {d.category, d.flags};
  }
}

const ActivityKinds::Kind *ActivityKinds::find(uint32_t engine, uint32_t activity) const {
  if (engine >= kinds_.size() || activity >= kinds_[engine].size()) return nullptr;
  return &kinds_[engine][activity];
}

uint16_t ActivityKinds::category(uint32_t engine, uint32_t activity) const {
  const Kind *kind = find(engine, activity);
  return kind ? kind->category : 0;
}

bool ActivityKinds::ends_flow(uint32_t engine, uint32_t activity) const {
  const Kind *kind = find(engine, activity);
  return kind && (kind->flags & PROF_GCU_ACTIVITY_ENDS_FLOW) != 0;
}

uint16_t ActivityKinds::label_category(uint32_t label) const {
  if (label == 0 ||
      driver_.struct_size <
          offsetof(prof_gcu_driver, label_category) + sizeof(driver_.label_category) ||
      driver_.label_category == nullptr)
    return 0;
  return driver_.label_category(label);
}

} // namespace prof::gcu
