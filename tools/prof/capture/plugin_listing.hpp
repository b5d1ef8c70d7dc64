// --plugin-list and --plugin "NAME help": what is installed, what was
// refused and why, and one plugin's option table.
#pragma once

#include "core/plugin_host/plugin_registry.hpp"

#include <string>

namespace prof::tool {

/// Every plugin found (name, kind, scope, version, ABI, path), then every
/// refused file with its reason, then loader warnings.
std::string plugin_list_text(const core::PluginRegistry &registry);

/// The option table of `plugin`: name, type, default, range or choices, help.
std::string plugin_help_text(const core::PluginInfo &plugin);

} // namespace prof::tool
