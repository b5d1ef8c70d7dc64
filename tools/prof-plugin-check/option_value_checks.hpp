// options.*: every bound and choice of the option table, and the values
// just outside them, through the host's validator (core's OptionValidator,
// the one prof uses) and through the plugin itself.
#pragma once

#include "tools/prof-plugin-check/rule_report.hpp"

#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <functional>
#include <map>
#include <string>

namespace prof::plugin_check {

/// Runs the plugin with `values` (a source's create and configure, an
/// exporter's create, begin and end); "" when it accepted them, else why not.
using TryOptions = std::function<std::string(const core::OptionValues &values)>;

/// Adds options.host-accepts-table-values, options.host-refuses-outside-values
/// and options.plugin-accepts-table-values. `base` holds the values every run
/// starts from (--option); each case changes one option on top of them.
void check_option_values(const core::PluginInfo &plugin,
                         const std::map<std::string, std::string> &base, const TryOptions &run,
                         RuleReport &report);

} // namespace prof::plugin_check
