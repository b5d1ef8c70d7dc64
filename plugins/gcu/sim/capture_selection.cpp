#include "capture_selection.hpp"

namespace prof::gcusim {

std::optional<CaptureSelection> CaptureSelection::build(const prof_gcu_capture_config &config,
                                                        const prof_gcu_topology &topology,
                                                        const ItemSlots &slots,
                                                        std::string &error) {
  if (config.item_count > 0 && config.items == nullptr) {
    error = "item_count is " + std::to_string(config.item_count) + " but items is null";
    return std::nullopt;
  }
  if (config.api_count > 0 && config.apis == nullptr) {
    error = "api_count is " + std::to_string(config.api_count) + " but apis is null";
    return std::nullopt;
  }
  CaptureSelection selection;
  selection.items_.assign(topology.device_count,
                          std::vector<uint64_t>((slots.slot_count() + 63) / 64, 0));
  selection.device_any_.assign(topology.device_count, false);
  for (uint32_t i = 0; i < config.item_count; ++i) {
    const prof_gcu_item &item = config.items[i];
    if (std::string reason = slots.check(item); !reason.empty()) {
      error = "items[" + std::to_string(i) + "]: " + reason;
      return std::nullopt;
    }
    uint32_t slot = slots.slot(item.group_index, item.engine, item.engine_index, item.item);
    selection.items_[item.device][slot / 64] |= uint64_t{1} << (slot % 64);
    selection.device_any_[item.device] = true;
    selection.any_items_ = true;
  }
  for (uint32_t i = 0; i < config.api_count; ++i) {
    const prof_gcu_api_item &api = config.apis[i];
    if (api.domain >= topology.api_domain_count) {
      error = "apis[" + std::to_string(i) + "]: domain " + std::to_string(api.domain) +
              " out of range (" + std::to_string(topology.api_domain_count) + " domains)";
      return std::nullopt;
    }
    uint32_t functions = topology.api_domains[api.domain].function_count;
    if (api.function >= functions) {
      error = "apis[" + std::to_string(i) + "]: function " + std::to_string(api.function) +
              " out of range (" + std::to_string(functions) + " functions in " +
              topology.api_domains[api.domain].name + ")";
      return std::nullopt;
    }
    selection.apis_ |= uint64_t{1} << api.function;
  }
  return selection;
}

} // namespace prof::gcusim
