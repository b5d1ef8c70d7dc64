#include "core/plugin_host/option_values.hpp"

namespace prof::core {

const char *OptionValues::get(const char *key) const {
  if (!plugin_ || !key) return nullptr;
  const prof_option_desc *option = plugin_->option(key);
  if (!option) return nullptr;
  if (auto it = values_.find(key); it != values_.end()) return it->second.c_str();
  return option->default_value;
}

std::map<std::string, std::string> OptionValues::effective() const {
  std::map<std::string, std::string> result;
  if (!plugin_) return result;
  for (const auto &option : plugin_->options) {
    const char *value = get(option.name);
    result[option.name] = value ? value : "";
  }
  return result;
}

} // namespace prof::core
