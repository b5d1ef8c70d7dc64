#include "tools/prof/cli/profile_merge.hpp"

#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/option_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>

namespace prof::cli {
namespace {

constexpr std::string_view kNotInProfiles[] = {"config", "plugin", "plugin-path", "help",
                                               "version"};

UsageError error_at(const config::SourcePosition &where, const std::string &reason) {
  return UsageError(where.text() + ": " + reason);
}

void merge_option(CommandLine &command, const config::ProfileOption &option) {
  const OptionSpec *spec = find_option(option.name);
  if (!spec)
    throw error_at(option.name_at, "'" + option.name + "' is not a prof option (see prof --help)");
  if (std::find(std::begin(kNotInProfiles), std::end(kNotInProfiles), option.name) !=
      std::end(kNotInProfiles)) {
    const std::string hint = option.name == "plugin" ? " (use the plugins: section)" : "";
    throw error_at(option.name_at, "'" + option.name + "' cannot be set in a profile" + hint);
  }
  const std::string dashed = "--" + option.name;
  std::string value = "true";
  if (spec->kind == ValueKind::Optional) {
    // `debug-dump: true` is the flag form; any other word is its value.
    bool on = true;
    value = option.has_value && !config::parse_bool_word(option.value, on) ? option.value : "";
    if (!on) return;
    if (config::ValueCheck check = check_option_value(*spec, value); !check.ok())
      throw error_at(option.value_at, check.error);
  } else if (!takes_value(*spec)) {
    bool on = true;
    if (option.has_value && !config::parse_bool_word(option.value, on))
      throw error_at(option.value_at, dashed + " takes true or false, not '" + option.value + "'");
    if (!on) return;
  } else {
    if (!option.has_value) throw error_at(option.name_at, dashed + " needs a value");
    config::ValueCheck check = check_option_value(*spec, option.value);
    if (!check.ok()) throw error_at(option.value_at, check.error);
    value = std::move(check.value);
  }
  if (command.has(option.name)) return; // the command line wins
  command.set(option.name, std::move(value), option.name_at.text());
}

void merge_plugin(CommandLine &command, const config::ProfilePlugin &plugin) {
  for (auto &spec : command.plugins) {
    if (spec.name != plugin.name) continue;
    for (const auto &option : plugin.options) {
      const bool given = std::any_of(spec.options.begin(), spec.options.end(),
                                     [&](const auto &mine) { return mine.first == option.first; });
      if (!given) spec.options.push_back(option);
    }
    return;
  }
  command.plugins.push_back({plugin.name, false, plugin.options, plugin.at.text()});
}

} // namespace

void merge_capture_profile(CommandLine &command, const config::CaptureProfile &profile) {
  for (const auto &option : profile.options)
    merge_option(command, option);
  for (const auto &plugin : profile.plugins)
    merge_plugin(command, plugin);
}

} // namespace prof::cli
