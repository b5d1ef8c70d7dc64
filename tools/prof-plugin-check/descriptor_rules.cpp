#include "tools/prof-plugin-check/descriptor_rules.hpp"

#include <cctype>
#include <set>
#include <string_view>

namespace prof::plugin_check {
namespace {

const char *const kLaterRules[] = {
    "descriptor.abi",          "descriptor.name",          "descriptor.version",
    "descriptor.description",  "descriptor.vendor",        "descriptor.file-name",
    "descriptor.option-names", "descriptor.option-values", "descriptor.option-help"};

std::vector<std::string> split_choices(const char *choices) {
  std::vector<std::string> items;
  std::string_view rest = choices ? choices : "";
  while (true) {
    const size_t comma = rest.find(',');
    items.emplace_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return items;
}

std::vector<std::string> option_value_problems(const core::PluginInfo &plugin) {
  std::vector<std::string> problems;
  for (const prof_option_desc &o : plugin.options) {
    if (o.type != PROF_OPTION_ENUM) continue;
    std::set<std::string> seen;
    for (const std::string &choice : split_choices(o.choices)) {
      if (choice.empty() || choice.find(' ') != std::string::npos)
        problems.push_back("option '" + std::string(o.name) + "' has choices '" + o.choices +
                           "' with an empty or spaced item");
      else if (!seen.insert(choice).second)
        problems.push_back("option '" + std::string(o.name) + "' lists choice '" + choice +
                           "' twice");
    }
  }
  return problems;
}

} // namespace

std::string option_name_problem(const char *name) {
  const std::string_view text = name ? name : "";
  if (text.empty()) return "an option has an empty name";
  if (!std::isalpha(static_cast<unsigned char>(text.front())))
    return "option '" + std::string(text) + "' does not start with a letter";
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
      return "option '" + std::string(text) + "' may only hold letters, digits, '-' and '_'";
  return {};
}

const core::PluginInfo *check_descriptor_rules(const core::PluginRegistry &registry,
                                               RuleReport &report) {
  if (registry.plugins().empty()) {
    const std::string reason =
        registry.refusals().empty() ? "not loaded" : registry.refusals().front().reason;
    report.fail("descriptor.load", reason);
    for (const char *rule : kLaterRules)
      report.skip(rule, "the plugin did not load");
    return nullptr;
  }
  const core::PluginInfo &plugin = registry.plugins().front();
  report.pass("descriptor.load", std::string(core::kind_name(plugin.kind)) + ", " +
                                     core::scope_name(plugin.scope) + " scope");
  // The loader refused wrong majors, newer minors and empty name, version
  // and description; these lines say what it accepted.
  report.pass("descriptor.abi",
              std::to_string(plugin.abi_major) + "." + std::to_string(plugin.abi_minor));
  report.pass("descriptor.name", plugin.name);
  report.pass("descriptor.version", plugin.version);
  report.pass("descriptor.description");
  if (plugin.vendor.empty())
    report.fail("descriptor.vendor", plugin.abi_minor == 0
                                         ? "built against ABI 1.0, whose descriptor has no vendor"
                                         : "the vendor is empty");
  else
    report.pass("descriptor.vendor", plugin.vendor);
  report.verdict("descriptor.file-name", registry.warnings());

  std::vector<std::string> names;
  for (const prof_option_desc &o : plugin.options)
    if (std::string problem = option_name_problem(o.name); !problem.empty())
      names.push_back(problem);
  report.verdict("descriptor.option-names", names,
                 std::to_string(plugin.options.size()) + " options, each name once");
  report.verdict("descriptor.option-values", option_value_problems(plugin));
  std::vector<std::string> help;
  for (const prof_option_desc &o : plugin.options)
    if (std::string_view(o.help ? o.help : "").find('\n') != std::string_view::npos)
      help.push_back("help of option '" + std::string(o.name) + "' is more than one line");
  report.verdict("descriptor.option-help", help);
  return &plugin;
}

} // namespace prof::plugin_check
