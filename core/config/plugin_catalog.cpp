#include "core/config/plugin_catalog.hpp"

#include <memory>

namespace prof::config {

PluginCatalog catalog_from_descriptors(std::vector<const prof_plugin_descriptor *> descriptors) {
  auto shared =
      std::make_shared<const std::vector<const prof_plugin_descriptor *>>(std::move(descriptors));
  PluginCatalog catalog;
  catalog.options_of = [shared](std::string_view name) -> std::optional<OptionTable> {
    for (const auto *descriptor : *shared) {
      if (!descriptor || !descriptor->name || name != descriptor->name) continue;
      if (!descriptor->options || descriptor->option_count == 0) return OptionTable();
      return OptionTable(descriptor->options, descriptor->option_count);
    }
    return std::nullopt;
  };
  catalog.installed = [shared] {
    std::vector<std::string> names;
    for (const auto *descriptor : *shared)
      if (descriptor && descriptor->name) names.emplace_back(descriptor->name);
    return names;
  };
  return catalog;
}

} // namespace prof::config
