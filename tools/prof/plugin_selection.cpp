#include "tools/prof/plugin_selection.hpp"

#include "core/config/option_validator.hpp"
#include "tools/prof/cli/plugin_mapping.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <map>

namespace prof::tool {

PluginSelection select_plugins(const cli::CommandLine &command,
                               const core::PluginRegistry &registry) {
  PluginSelection selection;
  for (const cli::PluginRequest &request : cli::plugin_requests(command)) {
    const core::PluginInfo *plugin = registry.find(request.plugin);
    if (plugin == nullptr) {
      if (request.implicit) continue;
      // A plugin named outright is simply missing; an option served by a
      // plugin is what the user sees as unavailable.
      const bool named = request.requested_by.rfind("--plugin", 0) == 0 ||
                         request.requested_by.rfind("--trace", 0) == 0;
      throw cli::UsageError(request.requested_by + (named ? ": plugin " : " is not available: plugin ") +
                            request.plugin + " is not installed (installed: " + registry.names() + ")");
    }
    config::OptionValidator validator(plugin->name, plugin->options.data(),
                                      plugin->options.size());
    config::ValidatedOptions checked = validator.validate(request.options, false);
    if (!checked.ok())
      throw cli::UsageError(request.requested_by + ": " + checked.errors.front());
    std::map<std::string, std::string> values(checked.values.begin(), checked.values.end());
    SelectedPlugin selected{plugin, core::OptionValues(*plugin, std::move(values)),
                            request.requested_by};
    (plugin->kind == PROF_KIND_SOURCE ? selection.sources : selection.exporters)
        .push_back(std::move(selected));
  }
  return selection;
}

} // namespace prof::tool
