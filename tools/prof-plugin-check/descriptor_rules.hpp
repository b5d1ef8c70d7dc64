// descriptor.*: what the loader (core's PluginRegistry with its descriptor
// checks) says of the file, and what the checker holds a plugin to beyond
// that: a vendor, well-formed option names, one-line help, a file name
// that agrees with the plugin's name.
#pragma once

#include "tools/prof-plugin-check/rule_report.hpp"

#include "core/plugin_host/plugin_registry.hpp"

namespace prof::plugin_check {

/// Adds the descriptor rules for a registry that tried to load one file:
/// descriptor.load fails with the loader's reason when it was refused, and
/// the other descriptor rules are then skipped. Returns the plugin, or
/// nullptr when it did not load.
const core::PluginInfo *check_descriptor_rules(const core::PluginRegistry &registry,
                                               RuleReport &report);

/// Empty when `name` is a well-formed option name (a letter, then letters,
/// digits, '-' and '_'), else why not.
std::string option_name_problem(const char *name);

} // namespace prof::plugin_check
