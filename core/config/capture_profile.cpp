#include "core/config/capture_profile.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace prof::config {
namespace {

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string node_kind(const YAML::Node &node) {
  switch (node.Type()) {
  case YAML::NodeType::Null:
    return "nothing";
  case YAML::NodeType::Scalar:
    return "a single value";
  case YAML::NodeType::Sequence:
    return "a sequence";
  case YAML::NodeType::Map:
    return "a map";
  default:
    return "an undefined node";
  }
}

std::string join(const std::vector<std::string> &items) {
  std::string out;
  for (const auto &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

/// Collects the problems of one file, each prefixed with its position.
class ProfileReader {
public:
  ProfileReader(std::string path, const PluginCatalog &catalog)
      : path_(std::move(path)), catalog_(catalog) {}

  CaptureProfile read(const std::string &text) {
    profile_.path = path_;
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::Exception &error) {
      fail(error.mark, "YAML syntax error: " + error.msg);
      throw ProfileError(errors_);
    }
    if (root.IsMap())
      read_root(root);
    else if (!root.IsNull())
      fail(root.Mark(), "a capture profile must be a map with description, options and "
                        "plugins, not " +
                            node_kind(root));
    if (!errors_.empty()) throw ProfileError(errors_);
    return std::move(profile_);
  }

private:
  SourcePosition at(const YAML::Mark &mark) const {
    if (mark.is_null()) return {path_, 0, 0};
    return {path_, mark.line + 1, mark.column + 1};
  }

  void fail(const YAML::Mark &mark, const std::string &reason) {
    errors_.push_back(at(mark).text() + ": " + reason);
  }

  /// The key's text, or nullopt (after reporting) for a key that is not a
  /// plain scalar or repeats an earlier one. `what` names the key in messages.
  std::optional<std::string> key_of(const YAML::Node &key, std::map<std::string, int> &seen,
                                    const std::string &what_prefix) {
    if (!key.IsScalar()) {
      fail(key.Mark(), "expected a name as key, not " + node_kind(key));
      return std::nullopt;
    }
    const std::string name = key.Scalar();
    auto [it, inserted] = seen.emplace(name, key.Mark().line + 1);
    if (!inserted) {
      fail(key.Mark(), what_prefix + in_quotes(name) + " is given twice (first at line " +
                           std::to_string(it->second) + ")");
      return std::nullopt;
    }
    return name;
  }

  void read_root(const YAML::Node &root) {
    std::map<std::string, int> seen;
    for (const auto &entry : root) {
      auto key = key_of(entry.first, seen, "");
      if (!key) continue;
      const YAML::Node &value = entry.second;
      if (*key == "description")
        read_description(value);
      else if (*key == "options")
        read_options(value);
      else if (*key == "plugins")
        read_plugins(value);
      else
        fail(entry.first.Mark(),
             "unknown key " + in_quotes(*key) + " (expected description, options, plugins)");
    }
  }

  void read_description(const YAML::Node &value) {
    if (value.IsNull()) return;
    if (!value.IsScalar()) {
      fail(value.Mark(), "'description' must be one line of text, not " + node_kind(value));
      return;
    }
    profile_.description = value.Scalar();
  }

  void read_options(const YAML::Node &section) {
    if (section.IsNull()) return;
    if (!section.IsMap()) {
      fail(section.Mark(),
           "'options' must be a map of option names to values, not " + node_kind(section));
      return;
    }
    std::map<std::string, int> seen;
    for (const auto &entry : section) {
      auto name = key_of(entry.first, seen, "option ");
      if (!name) continue;
      ProfileOption option{*name, {}, true, at(entry.first.Mark()), at(entry.second.Mark())};
      const YAML::Node &value = entry.second;
      if (value.IsNull()) {
        option.has_value = false;
        option.value_at = option.name_at;
      } else if (value.IsScalar()) {
        option.value = value.Scalar();
      } else if (value.IsSequence() && all_scalars(value)) {
        for (const auto &item : value)
          option.value += (option.value.empty() ? "" : ",") + item.Scalar();
      } else {
        fail(value.Mark(),
             "option " + in_quotes(*name) + " must be a single value, not " + node_kind(value));
        continue;
      }
      profile_.options.push_back(std::move(option));
    }
  }

  static bool all_scalars(const YAML::Node &sequence) {
    return std::all_of(sequence.begin(), sequence.end(),
                       [](const YAML::Node &item) { return item.IsScalar(); });
  }

  std::string not_installed(const std::string &name) const {
    std::vector<std::string> names;
    if (catalog_.installed) names = catalog_.installed();
    std::sort(names.begin(), names.end());
    std::string message = "plugin " + in_quotes(name) + " is not installed";
    if (!names.empty()) message += " (installed: " + join(names) + ")";
    return message;
  }

  void read_plugins(const YAML::Node &section) {
    if (section.IsNull()) return;
    if (!section.IsMap()) {
      fail(section.Mark(),
           "'plugins' must be a map of plugin names to their options, not " + node_kind(section));
      return;
    }
    std::map<std::string, int> seen;
    for (const auto &entry : section) {
      auto name = key_of(entry.first, seen, "plugin ");
      if (!name) continue;
      std::optional<OptionTable> table;
      if (catalog_.options_of) table = catalog_.options_of(*name);
      if (!table) {
        fail(entry.first.Mark(), not_installed(*name));
        continue;
      }
      ProfilePlugin plugin{*name, {}, at(entry.first.Mark())};
      read_plugin_options(OptionValidator(*name, *table), entry.second, plugin);
      profile_.plugins.push_back(std::move(plugin));
    }
  }

  void read_plugin_options(const OptionValidator &validator, const YAML::Node &options,
                           ProfilePlugin &plugin) {
    if (options.IsNull()) return;
    if (!options.IsMap()) {
      fail(options.Mark(), "plugin " + in_quotes(plugin.name) +
                               " must be given a map of its options, not " + node_kind(options));
      return;
    }
    std::map<std::string, int> seen;
    const std::string prefix = "plugin " + in_quotes(plugin.name) + ": option ";
    for (const auto &entry : options) {
      auto key = key_of(entry.first, seen, prefix);
      if (!key) continue;
      const prof_option_desc *desc = validator.find(*key);
      if (!desc) {
        fail(entry.first.Mark(), validator.unknown_option_message(*key));
        continue;
      }
      const YAML::Node &value = entry.second;
      if (!value.IsScalar()) {
        const std::string reason =
            value.IsNull() ? "needs a value" : "expected a single value, not " + node_kind(value);
        fail(value.IsNull() ? entry.first.Mark() : value.Mark(),
             validator.value_message(*key, reason));
        continue;
      }
      ValueCheck check = OptionValidator::check_value(*desc, value.Scalar());
      if (!check.ok()) {
        fail(value.Mark(), validator.value_message(*key, check.error));
        continue;
      }
      plugin.options.emplace_back(*key, std::move(check.value));
    }
  }

  std::string path_;
  const PluginCatalog &catalog_;
  CaptureProfile profile_;
  std::vector<std::string> errors_;
};

std::string join_lines(const std::vector<std::string> &lines) {
  std::string out;
  for (const auto &line : lines)
    out += (out.empty() ? "" : "\n") + line;
  return out;
}

} // namespace

std::string SourcePosition::text() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

ProfileError::ProfileError(std::vector<std::string> errors)
    : std::runtime_error(join_lines(errors)), errors_(std::move(errors)) {}

CaptureProfile parse_capture_profile(const std::string &text, const std::string &path,
                                     const PluginCatalog &catalog) {
  return ProfileReader(path, catalog).read(text);
}

CaptureProfile load_capture_profile(const std::filesystem::path &path,
                                    const PluginCatalog &catalog) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw ProfileError({path.string() + ": cannot read capture profile: " + std::strerror(errno)});
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw ProfileError({path.string() + ": cannot read capture profile"});
  return parse_capture_profile(text.str(), path.string(), catalog);
}

} // namespace prof::config
