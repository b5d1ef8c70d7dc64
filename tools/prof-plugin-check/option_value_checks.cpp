#include "tools/prof-plugin-check/option_value_checks.hpp"

#include "tools/prof-plugin-check/option_cases.hpp"

#include "core/config/option_validator.hpp"

namespace prof::plugin_check {

void check_option_values(const core::PluginInfo &plugin,
                         const std::map<std::string, std::string> &base, const TryOptions &run,
                         RuleReport &report) {
  using config::OptionValidator;
  std::vector<std::string> host_accepts, host_refuses, plugin_accepts;
  size_t accepted_cases = 0, refused_cases = 0;
  const std::string base_refusal = run(core::OptionValues(plugin, base));
  for (const prof_option_desc &option : plugin.options) {
    for (const OptionCase &c : option_cases(option)) {
      const config::ValueCheck check = OptionValidator::check_value(option, c.value);
      const std::string named = std::string(option.name) + "=" + c.value + " (" + c.what + ")";
      if (!c.in_table) {
        ++refused_cases;
        if (check.ok()) host_refuses.push_back("the host accepts " + named);
        continue;
      }
      ++accepted_cases;
      if (!check.ok()) {
        host_accepts.push_back("the host refuses " + named + ": " + check.error);
        continue;
      }
      if (!base_refusal.empty()) continue;
      std::map<std::string, std::string> values = base;
      values[option.name] = check.value;
      if (std::string why = run(core::OptionValues(plugin, values)); !why.empty())
        plugin_accepts.push_back("the plugin refuses " + named + ": " + why);
    }
  }
  if (accepted_cases + refused_cases == 0) {
    const char *why = "no option has bounds, choices or a type to test";
    report.skip("options.host-accepts-table-values", why);
    report.skip("options.host-refuses-outside-values", why);
    report.skip("options.plugin-accepts-table-values", why);
    return;
  }
  report.verdict("options.host-accepts-table-values", host_accepts,
                 std::to_string(accepted_cases) + " values");
  report.verdict("options.host-refuses-outside-values", host_refuses,
                 std::to_string(refused_cases) + " values");
  if (!base_refusal.empty())
    report.skip("options.plugin-accepts-table-values",
                "the plugin refuses the values every run starts from (" + base_refusal +
                    "); give ones it accepts with --option");
  else
    report.verdict("options.plugin-accepts-table-values", plugin_accepts,
                   std::to_string(accepted_cases) + " values");
}

} // namespace prof::plugin_check
