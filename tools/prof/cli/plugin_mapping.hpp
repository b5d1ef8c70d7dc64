// Which plugin serves each topsprof-style option, for the capture engine.
#pragma once

#include "tools/prof/cli/command_line.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::cli {

/// How an option affects its plugin.
enum class MappingRole {
  Enables, ///< asks for the plugin
  Modifies ///< only sets an option of a plugin something else asked for
};

/// topsprof option -> plugin option. `value` is fixed text, or empty to
/// pass the option's own value. An Enables entry with key and value "true"
/// is a switch: when its plugin is asked for by other options, the switch
/// is passed as "false" (--cpu-utilization alone gives cpu=true memory=false).
struct OptionMapping {
  std::string_view option;
  std::string_view plugin;
  std::string_view key;   ///< plugin option key, "" when the option only selects the plugin
  std::string_view value; ///< fixed value, "" for the option's own value
  MappingRole role;
};

/// The whole table.
std::span<const OptionMapping> option_mappings();

/// One plugin the capture needs, with its options (not yet validated
/// against the plugin's table: use config::OptionValidator).
struct PluginRequest {
  std::string plugin;
  std::vector<std::pair<std::string, std::string>> options;
  /// What asked for it, for "prof: --enable-activities is not available:
  /// plugin gcu is not installed": "--enable-activities", "--plugin",
  /// "--trace", "--sample", "profile.yaml:7:3", "--print-summary".
  std::string requested_by;
  /// True for the default summary exporter nobody asked for: skip it
  /// quietly when it is not installed.
  bool implicit = false;
  /// What a missing plugin means to the user ("-t hggc needs ..."), "" to
  /// say only that the plugin is not installed.
  std::string when_missing;
};

/// The plugins a (rule-checked) command line needs, in the order first asked
/// for. Requests for one plugin are merged; --plugin keys win over keys
/// derived from topsprof options. --trace items are asys/nsys trace items
/// (trace_items.hpp) or plugin names; an item prof has no source for throws
/// UsageError naming what it needs. A
/// capture or a saved capture without --quiet and without any print option
/// or --plugin summary/trace gets an implicit summary (mode=summary), as
/// topsprof prints its summary by default. Queries (--query-*,
/// --export-events/-activities) ask for gcu; --help, --version,
/// --plugin-list, control and session options ask for nothing.
std::vector<PluginRequest> plugin_requests(const CommandLine &command);

/// Where cpu-perf and the python source would both
/// sample the launched tree, at one rate and with user call stacks only, the
/// python source samples it alone (python native=true: processes without
/// CPython get native frames) and cpu-perf keeps thread states and CPU rows
/// (scope=none), so that each thread pays for one timer, not two. Kernel
/// frames, hardware counters, a sampling period or a Python rate of its own
/// keep both. `application_is_python` (asked last, as it reads files) says
/// whether the launched program is a CPython one. Returns whether it handed
/// the tree over.
bool let_python_sample_the_tree(std::vector<PluginRequest> &requests,
                                const std::function<bool()> &application_is_python);

} // namespace prof::cli
