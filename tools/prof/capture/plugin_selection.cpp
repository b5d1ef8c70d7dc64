#include "tools/prof/capture/plugin_selection.hpp"

#include "core/config/option_validator.hpp"
#include "core/plugin_host/output_name.hpp"
#include "core/plugin_host/source_instance.hpp"
#include "tools/prof/capture/python_program.hpp"
#include "tools/prof/cli/plugin_mapping.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"

#include <filesystem>
#include <map>

namespace prof::tool {

namespace {
// An exporter's `path` is an output file (or a folder to write into): refuse
// an existing file now, before anything runs, unless it may be overwritten.
void check_output(const core::PluginInfo &plugin,
                  const std::map<std::string, std::string> &values) {
  auto path = values.find("path");
  if (path == values.end() || path->second.empty() || path->second.back() == '/') return;
  std::error_code ec;
  if (std::filesystem::is_directory(path->second, ec)) return;
  auto overwrite = values.find("overwrite");
  const bool force = overwrite != values.end() && overwrite->second == "true";
  std::string problem;
  if (!core::output_path_allowed(path->second, force, &problem))
    throw cli::UsageError(plugin.name + ": " + problem);
}
} // namespace

std::vector<SelectedPlugin> take_process_sources(PluginSelection &selection) {
  std::vector<SelectedPlugin> process_sources;
  std::erase_if(selection.sources, [&](const SelectedPlugin &source) {
    if (source.plugin->scope != PROF_SCOPE_PROCESS) return false;
    process_sources.push_back(source);
    return true;
  });
  return process_sources;
}

SelectedPlugin configure_plugin(const core::PluginInfo &plugin,
                                const std::vector<std::pair<std::string, std::string>> &options,
                                bool force, const std::string &requested_by) {
  config::OptionValidator validator(plugin.name, plugin.options.data(), plugin.options.size());
  config::ValidatedOptions checked = validator.validate(options, false);
  if (!checked.ok()) throw cli::UsageError(requested_by + ": " + checked.errors.front());
  std::map<std::string, std::string> values(checked.values.begin(), checked.values.end());
  // --force-overwrite is the one switch for every file prof writes.
  if (force && plugin.option("overwrite") && !values.count("overwrite"))
    values["overwrite"] = "true";
  if (plugin.kind == PROF_KIND_EXPORTER) check_output(plugin, values);
  return SelectedPlugin{&plugin, core::OptionValues(plugin, std::move(values)), requested_by};
}

PluginSelection select_plugins(const cli::CommandLine &command,
                               const core::PluginRegistry &registry) {
  PluginSelection selection;
  std::vector<cli::PluginRequest> requests = cli::plugin_requests(command);
  // (Asked only where cpu-perf and python would both sample: loads the plugin then.)
  if (command.has_app())
    cli::let_python_sample_the_tree(requests, [&] {
      return registry.find("python") != nullptr && runs_cpython(command.app[0]);
    });
  for (const cli::PluginRequest &request : requests) {
    const core::PluginInfo *plugin = registry.find(request.plugin);
    if (plugin == nullptr) {
      if (request.implicit) continue;
      if (!request.when_missing.empty())
        throw cli::UsageError(request.when_missing +
                              ", which is not installed (installed: " + registry.names() + ")");
      // A plugin named outright is simply missing; an option served by a
      // plugin is what the user sees as unavailable.
      const bool named = request.requested_by.rfind("--plugin", 0) == 0 ||
                         request.requested_by.rfind("--trace", 0) == 0;
      throw cli::UsageError(request.requested_by +
                            (named ? ": plugin " : " is not available: plugin ") + request.plugin +
                            " is not installed (installed: " + registry.names() + ")");
    }
    SelectedPlugin selected = configure_plugin(
        *plugin, request.options, command.has("force-overwrite"), request.requested_by);
    (plugin->kind == PROF_KIND_SOURCE ? selection.sources : selection.exporters)
        .push_back(std::move(selected));
  }
  return selection;
}

// Process-scope sources run inside the application, where a bad option could
// only be reported after it started: each is configured here first, so a bad
// filter string stops prof before anything runs.
void check_process_sources(const std::vector<SelectedPlugin> &sources,
                           core::CaptureContext &capture) {
  for (const SelectedPlugin &selected : sources) {
    core::SourceInstance source(*selected.plugin, selected.options, capture);
    if (!source.create()) throw std::runtime_error(source.error());
    if (!source.configure()) throw cli::UsageError(source.error());
  }
}

std::vector<core::PluginChoice> choices_of(const std::vector<SelectedPlugin> &selected) {
  std::vector<core::PluginChoice> choices;
  for (const SelectedPlugin &s : selected)
    choices.push_back({s.plugin, s.options});
  return choices;
}

} // namespace prof::tool
