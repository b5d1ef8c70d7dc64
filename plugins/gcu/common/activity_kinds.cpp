#include "activity_kinds.hpp"

#include <prof/event.h>

#include <cstddef>

namespace prof::gcu {

ActivityKinds::ActivityKinds(const prof_gcu_driver &driver, const prof_gcu_topology &topology)
    : driver_(driver), kinds_(topology.engine_count) {
  for (uint32_t e = 0; e < topology.engine_count; ++e)
    kinds_[e].resize(topology.engines[e].activity_count);
  api_categories_.resize(topology.api_domain_count);
  for (uint32_t d = 0; d < topology.api_domain_count; ++d)
    api_categories_[d].assign(topology.api_domains[d].function_count, PROF_CATEGORY_RUNTIME_API);
  if (topology.struct_size >=
          offsetof(prof_gcu_topology, api_desc_count) + sizeof(topology.api_desc_count) &&
      topology.api_descs != nullptr)
    for (uint32_t i = 0; i < topology.api_desc_count; ++i) {
      const prof_gcu_api_desc &d = topology.api_descs[i];
      if (d.domain < api_categories_.size() && d.function < api_categories_[d.domain].size() &&
          d.category < PROF_CATEGORY_COUNT)
        api_categories_[d.domain][d.function] = d.category;
    }
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

uint16_t ActivityKinds::api_category(uint32_t domain, uint32_t function) const {
  if (domain >= api_categories_.size() || function >= api_categories_[domain].size())
    return PROF_CATEGORY_RUNTIME_API;
  return api_categories_[domain][function];
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
