// What the configuration layer needs to know about installed plugins.
#pragma once

#include <prof/plugin.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace prof::config {

/// The option table of one plugin (may be empty).
using OptionTable = std::span<const prof_option_desc>;

/// Lookup of installed plugins' option tables, so profiles and --plugin specs
/// can be validated without creating plugin instances.
struct PluginCatalog {
  /// Option table of plugin `name`; std::nullopt when no such plugin is installed.
  std::function<std::optional<OptionTable>(std::string_view name)> options_of;
  /// Names of the installed plugins, for "(installed: ...)" hints; may be unset.
  std::function<std::vector<std::string>()> installed;
};

/// A catalog over descriptors the caller keeps alive (the registry's, or a
/// test's static ones).
PluginCatalog catalog_from_descriptors(std::vector<const prof_plugin_descriptor *> descriptors);

} // namespace prof::config
