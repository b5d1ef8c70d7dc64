// The CLI's options that set a plugin's option say what the plugin says:
// every value an integer option's range lets through, the plugin accepts
// (the CLI may keep topsprof's narrower range); a default the help text
// states is the plugin's ("(default 64; cuda: 8)" where plugins differ); an
// enum's choices are the plugin's. The plugin's descriptor is the one
// source of these; the CLI's table repeats them for its help and its early
// errors, and this test keeps the two from drifting.
#include "core/plugin_host/plugin_registry.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/file_text.hpp"
#include "tools/prof/cli/option_table.hpp"
#include "tools/prof/cli/plugin_mapping.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace prof::cli {
namespace {

const prof_option_desc *plugin_option(const core::PluginInfo &plugin, std::string_view key) {
  for (const prof_option_desc &option : plugin.options)
    if (key == option.name) return &option;
  return nullptr;
}

std::set<std::string> split(std::string_view text, char separator) {
  std::set<std::string> parts;
  std::stringstream in{std::string(text)};
  for (std::string part; std::getline(in, part, separator);)
    if (!part.empty()) parts.insert(part);
  return parts;
}

/// The default the help text states for `plugin`: "(default 100)", or with
/// other plugins' own ("(default 64; cuda: 8)"); "" when it states none.
std::string stated_default(std::string_view help, std::string_view plugin) {
  const std::string text(help);
  std::smatch found;
  const std::regex own("[(;] " + std::string(plugin) + ": ([^ ;)]+)[;)]");
  if (std::regex_search(text, found, own)) return found[1].str();
  static const std::regex general(R"(\(default ([^ ;),]+)[;)])");
  return std::regex_search(text, found, general) ? found[1].str() : "";
}

TEST(CliAgreesWithPlugins, RangesDefaultsAndChoicesOfTheOptionsThatSetAPluginsOption) {
  core::PluginRegistry registry;
  registry.scan({e2e::kPluginDir});
  size_t checked = 0;
  std::set<std::string> absent;
  for (const OptionMapping &mapping : option_mappings()) {
    if (mapping.key.empty() || !mapping.value.empty()) continue; // selects, or sets a fixed value
    const OptionSpec *spec = find_option(mapping.option);
    ASSERT_NE(spec, nullptr) << mapping.option;
    const core::PluginInfo *plugin = registry.find(std::string(mapping.plugin));
    if (plugin == nullptr) { // not built here (cuda without its toolkit)
      absent.insert(std::string(mapping.plugin));
      continue;
    }
    SCOPED_TRACE("--" + std::string(mapping.option) + " -> " + std::string(mapping.plugin) + " " +
                 std::string(mapping.key));
    const prof_option_desc *option = plugin_option(*plugin, mapping.key);
    ASSERT_NE(option, nullptr) << "the plugin has no such option";
    ++checked;
    if (spec->kind == ValueKind::Int && option->min <= option->max) {
      EXPECT_GE(spec->min, static_cast<long>(option->min)) << "the CLI lets through a value below";
      EXPECT_LE(spec->max, static_cast<long>(option->max)) << "the CLI lets through a value above";
    }
    if (spec->kind == ValueKind::Enum && option->choices != nullptr)
      EXPECT_EQ(split(spec->choices, '|'), split(option->choices, ','));
    const std::string stated = stated_default(spec->help, mapping.plugin);
    if (!stated.empty() && option->default_value != nullptr)
      EXPECT_EQ(stated, option->default_value) << spec->help;
  }
  EXPECT_GE(checked, 20u) << "the table's options that set a plugin's option";
  for (const std::string &name : absent)
    std::cout << "not built here, not checked: " << name << "\n";
}

// The option table is the one place a default is written: plugin code reads
// options through prof::DeclaredOptions, which falls back on the table, and
// writes no fallback of its own (`host.option("mode").value_or("summary")`
// would make the plugin behave differently on a host that hands no default).
// Every option that code reads is one its plugin declares. The plugins of
// plugins/NAME declare NAME's; those under plugins/gcu are the gcu family's.
TEST(CliAgreesWithPlugins, PluginCodeReadsOnlyDeclaredOptionsAndWritesNoDefault) {
  core::PluginRegistry registry;
  registry.scan({e2e::kPluginDir});
  const std::map<std::string, std::vector<std::string>> families = {
      {"gcu", {"gcu", "sip-pmc", "gcu-metrics"}}};
  static const std::regex read(
      R"re(\.(text|flag|integer|real|given|default_of)\("([a-z0-9-]+)"\))re");
  static const std::regex own_fallback(
      R"re(option\("[a-z0-9-]+"\)\s*\.\s*value_or|option_(int|bool|double)\()re");
  size_t checked = 0;
  for (const auto &folder : std::filesystem::directory_iterator(PROF_SOURCE_DIR "/plugins")) {
    if (!folder.is_directory()) continue;
    const std::string name = folder.path().filename().string();
    const auto family = families.find(name);
    std::vector<const core::PluginInfo *> plugins;
    for (const std::string &member :
         family != families.end() ? family->second : std::vector<std::string>{name})
      if (const core::PluginInfo *plugin = registry.find(member)) plugins.push_back(plugin);
    if (plugins.empty()) { // not built here (cuda without its toolkit)
      std::cout << "not built here, not checked: " << name << "\n";
      continue;
    }
    const auto declared = [&](const std::string &key) {
      for (const core::PluginInfo *plugin : plugins)
        if (plugin_option(*plugin, key) != nullptr) return true;
      return false;
    };
    for (const auto &file : std::filesystem::recursive_directory_iterator(folder.path())) {
      const std::string extension = file.path().extension().string();
      if (extension != ".cpp" && extension != ".hpp") continue;
      const std::string text = testing::file_text(file.path());
      EXPECT_FALSE(std::regex_search(text, own_fallback))
          << file.path() << " writes a default of its own";
      for (std::sregex_iterator it(text.begin(), text.end(), read), end; it != end; ++it) {
        if (text.find("DeclaredOptions") == std::string::npos) break; // another .text(...)
        SCOPED_TRACE(file.path().string() + ": " + it->str());
        EXPECT_TRUE(declared((*it)[2].str())) << "an option its plugin does not declare";
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 60u) << "the options plugin code reads";
}

} // namespace
} // namespace prof::cli
