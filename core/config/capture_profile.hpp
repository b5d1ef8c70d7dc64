// YAML capture profiles: topsprof-style options plus per-plugin options.
#pragma once

#include "core/config/option_validator.hpp"
#include "core/config/plugin_catalog.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace prof::config {

/// A place in a profile file, 1-based; text() is "path:line:column".
struct SourcePosition {
  std::string file;
  int line = 0;
  int column = 0;
  std::string text() const;
};

/// One entry of the profile's `options:` section. Names and values are
/// checked by the command-line layer (same rules as the command line).
struct ProfileOption {
  std::string name;
  std::string value;     ///< scalar text; a sequence of scalars is joined with ','
  bool has_value = true; ///< false for `name:` with nothing after it
  SourcePosition name_at;
  SourcePosition value_at;
};

/// One entry of the profile's `plugins:` section, already validated against
/// the plugin's option table. Holds only the options the profile sets,
/// normalized; defaults are filled when the capture validates the plugin.
struct ProfilePlugin {
  std::string name;
  OptionValues options;
  SourcePosition at;
};

/// A loaded capture profile.
struct CaptureProfile {
  std::string path;
  std::string description;
  std::vector<ProfileOption> options;
  std::vector<ProfilePlugin> plugins;
};

/// Every problem found in a profile, one "path:line:column: reason" line each.
class ProfileError : public std::runtime_error {
public:
  explicit ProfileError(std::vector<std::string> errors);
  const std::vector<std::string> &errors() const { return errors_; }

private:
  std::vector<std::string> errors_;
};

/// Reads and checks a profile. Shape:
///   description: text
///   options: {topsprof option: value, ...}
///   plugins: {plugin name: {option: value, ...} or {} or nothing}
/// Throws ProfileError listing all problems: YAML syntax, wrong node types,
/// unknown or duplicate keys, plugins not in `catalog`, plugin options that
/// the plugin's table rejects.
CaptureProfile load_capture_profile(const std::filesystem::path &path,
                                    const PluginCatalog &catalog);

/// Same, from text; `path` is only used in messages.
CaptureProfile parse_capture_profile(const std::string &text, const std::string &path,
                                     const PluginCatalog &catalog);

} // namespace prof::config
