// The option values one plugin instance runs with: validated text by key,
// falling back to the option table's defaults.
#pragma once

#include "core/plugin_host/plugin_registry.hpp"

#include <map>
#include <string>

namespace prof::core {

class OptionValues {
public:
  OptionValues() = default;
  OptionValues(const PluginInfo &plugin, std::map<std::string, std::string> values)
      : plugin_(&plugin), values_(std::move(values)) {}

  /// Value of `key`: set value, else the default, else nullptr (also for
  /// keys the plugin does not declare).
  const char *get(const char *key) const;
  const std::map<std::string, std::string> &set_values() const { return values_; }
  /// Every declared option with its effective value ("" when none).
  std::map<std::string, std::string> effective() const;

private:
  const PluginInfo *plugin_ = nullptr;
  std::map<std::string, std::string> values_;
};

} // namespace prof::core
