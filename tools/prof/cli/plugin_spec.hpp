// A --plugin "NAME k=v ..." or --plugin "NAME help" argument.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::cli {

/// One plugin the user asked for, with the options given to it.
struct PluginSpec {
  std::string name;
  bool help = false; ///< "NAME help": print the plugin's options, capture nothing
  std::vector<std::pair<std::string, std::string>> options; ///< key=value pairs, in order
  std::string origin; ///< "" for the command line, else "profile.yaml:7:3"
};

/// Parses "NAME", "NAME k=v k2=v2" or "NAME help" (words split at blanks;
/// values cannot hold blanks: use a YAML profile for those). Plugin names
/// and keys are letters, digits, '-', '_' and '.'. Throws UsageError naming
/// the spec for an empty spec, a bad name, a word without '=', an empty
/// key, a key given twice or "help" mixed with options.
PluginSpec parse_plugin_spec(std::string_view text);

} // namespace prof::cli
