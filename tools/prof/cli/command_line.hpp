// The parsed command line of prof.
#pragma once

#include "tools/prof/cli/plugin_spec.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::cli {

/// One option that was set, by the command line or a capture profile.
struct GivenOption {
  std::string name;   ///< long name without dashes
  std::string value;  ///< normalized value; "true" for flags; items joined by ',' for lists
  std::string origin; ///< "" for the command line, else "profile.yaml:3:3"
};

/// What the user asked prof to do. Values are checked (types, ranges,
/// session names) when parsed; the cross-option rules are checked by
/// check_option_rules().
struct CommandLine {
  std::string subcommand = "profile"; ///< "profile" (also when implicit), "plugins", "attach", ...
  bool subcommand_given = false;      ///< false for topsprof's flat form
  std::vector<GivenOption> options;   ///< in the order given; --plugin and --plugin-path excluded
  std::vector<std::string> app;       ///< application and its arguments; empty if none
  std::vector<PluginSpec> plugins;    ///< --plugin specs and profile `plugins:` entries
  std::vector<std::string> plugin_paths;  ///< --plugin-path, in order
  std::optional<std::string> config_path; ///< --config FILE

  /// Whether option `name` was set.
  bool has(std::string_view name) const;
  /// The option's value, or nullptr when not set.
  const std::string *value(std::string_view name) const;
  /// The option's value, or `fallback` when not set.
  std::string value_or(std::string_view name, std::string_view fallback) const;
  /// An Int option's value, or `fallback` when not set.
  long int_or(std::string_view name, long fallback) const;
  /// The GivenOption entry, or nullptr.
  const GivenOption *find(std::string_view name) const;
  /// Sets (or replaces) an option's value.
  void set(std::string name, std::string value, std::string origin = {});
  /// Whether an application is to be launched.
  bool has_app() const { return !app.empty(); }
};

} // namespace prof::cli
