#include <prof/activity/device_tree.hpp>

namespace prof::activity {

DeviceTree::DeviceTree(const prof_gcu_topology &topology)
    : topology_(topology), group_count_(topology.groups ? topology.group_count : 0),
      engine_count_(topology.engines ? topology.engine_count : 0),
      domain_count_(topology.api_domains ? topology.api_domain_count : 0) {
  group_engines_.resize(group_count_ + 1);
  for (uint32_t e = 0; e < engine_count_; ++e) {
    const int32_t group = topology_.engines[e].group;
    if (group == kDeviceGroup)
      group_engines_[group_count_].push_back(e);
    else if (group >= 0 && static_cast<uint32_t>(group) < group_count_)
      group_engines_[group].push_back(e);
  }
}

std::string_view DeviceTree::group_name(uint32_t group) const {
  return text_of(topology_.groups[group].name);
}

uint32_t DeviceTree::group_instances(uint32_t group) const { return topology_.groups[group].count; }

const std::vector<uint32_t> &DeviceTree::engines_in(int32_t group) const {
  return group == kDeviceGroup ? group_engines_[group_count_] : group_engines_.at(group);
}

std::string_view DeviceTree::engine_name(uint32_t engine) const {
  return text_of(topology_.engines[engine].name);
}

int32_t DeviceTree::engine_group(uint32_t engine) const { return topology_.engines[engine].group; }

uint32_t DeviceTree::engine_instances(uint32_t engine) const {
  return topology_.engines[engine].count;
}

bool DeviceTree::engine_listed(uint32_t engine) const {
  const int32_t group = engine_group(engine);
  return group == kDeviceGroup || (group >= 0 && static_cast<uint32_t>(group) < group_count_);
}

uint32_t DeviceTree::item_count(uint32_t engine, ItemKind kind) const {
  const prof_gcu_engine_desc &e = topology_.engines[engine];
  if (kind == ItemKind::Activity) return e.activities ? e.activity_count : 0;
  return e.events ? e.event_count : 0;
}

std::string_view DeviceTree::item_name(uint32_t engine, ItemKind kind, uint32_t item) const {
  const prof_gcu_engine_desc &e = topology_.engines[engine];
  return text_of(kind == ItemKind::Activity ? e.activities[item] : e.events[item]);
}

std::string_view DeviceTree::domain_name(uint32_t domain) const {
  return text_of(topology_.api_domains[domain].name);
}

uint32_t DeviceTree::function_count(uint32_t domain) const {
  const prof_gcu_api_domain &d = topology_.api_domains[domain];
  return d.functions ? d.function_count : 0;
}

std::string_view DeviceTree::function_name(uint32_t domain, uint32_t function) const {
  return text_of(topology_.api_domains[domain].functions[function]);
}

std::vector<prof_gcu_item> DeviceTree::all_items(ItemKind kind) const {
  std::vector<prof_gcu_item> items;
  auto add_engine = [&](uint32_t device, int32_t group, uint32_t group_index, uint32_t engine) {
    for (uint32_t ei = 0; ei < engine_instances(engine); ++ei)
      for (uint32_t i = 0; i < item_count(engine, kind); ++i)
        items.push_back({device, group, group_index, engine, ei, i});
  };
  for (uint32_t d = 0; d < device_count(); ++d) {
    for (uint32_t g = 0; g < group_count_; ++g)
      for (uint32_t gi = 0; gi < group_instances(g); ++gi)
        for (uint32_t e : group_engines_[g])
          add_engine(d, static_cast<int32_t>(g), gi, e);
    for (uint32_t e : group_engines_[group_count_])
      add_engine(d, kDeviceGroup, 0, e);
  }
  return items;
}

std::vector<prof_gcu_api_item> DeviceTree::all_apis() const {
  std::vector<prof_gcu_api_item> apis;
  for (uint32_t d = 0; d < domain_count_; ++d)
    for (uint32_t f = 0; f < function_count(d); ++f)
      apis.push_back({d, f});
  return apis;
}

std::string DeviceTree::describe(const prof_gcu_item &item, ItemKind kind) const {
  std::string out = "Device" + std::to_string(item.device) + "/";
  if (item.group >= 0 && static_cast<uint32_t>(item.group) < group_count_)
    out.append(group_name(item.group)).append(std::to_string(item.group_index)).append("/");
  if (item.engine < engine_count_) {
    out.append(engine_name(item.engine)).append(std::to_string(item.engine_index)).append("/");
    if (item.item < item_count(item.engine, kind))
      return out.append(item_name(item.engine, kind, item.item));
  }
  return out + "?";
}

std::string DeviceTree::describe(const prof_gcu_api_item &api) const {
  if (api.domain >= domain_count_ || api.function >= function_count(api.domain))
    return "Api Trace/?";
  std::string out = "Api Trace/";
  return out.append(domain_name(api.domain))
      .append("/")
      .append(function_name(api.domain, api.function));
}

} // namespace prof::activity
