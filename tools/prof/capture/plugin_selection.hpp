// Turns the plugins a command line asks for into installed plugins with
// validated options, or a usage error naming what asked for a missing one.
#pragma once

#include "core/capture/capture_runner.hpp"
#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "core/plugin_host/source_instance.hpp"
#include "tools/prof/cli/command_line.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// One plugin to run, its options checked against its table.
struct SelectedPlugin {
  const core::PluginInfo *plugin = nullptr;
  core::OptionValues options;
  std::string requested_by;
};

struct PluginSelection {
  std::vector<SelectedPlugin> sources;
  std::vector<SelectedPlugin> exporters;
};

/// Throws cli::UsageError ("prof: --enable-activities is not available:
/// plugin gcu is not installed", "prof: --plugin cpu-util: option ...").
PluginSelection select_plugins(const cli::CommandLine &command,
                               const core::PluginRegistry &registry);

/// Takes the process-scope sources (they run inside the application) out of
/// `selection`, in order.
std::vector<SelectedPlugin> take_process_sources(PluginSelection &selection);

/// `plugin` with `options` checked against its option table, and
/// overwrite=true when `force` and it has that option. Throws cli::UsageError
/// naming `requested_by` for a bad option or an output file that exists.
SelectedPlugin configure_plugin(const core::PluginInfo &plugin,
                                const std::vector<std::pair<std::string, std::string>> &options,
                                bool force, const std::string &requested_by);

/// Configures each process-scope source once in prof, so a bad option is
/// exit 2 before anything runs. Throws cli::UsageError.
void check_process_sources(const std::vector<SelectedPlugin> &sources,
                           core::CaptureContext &capture);

/// The selected plugins as the capture runner takes them.
std::vector<core::PluginChoice> choices_of(const std::vector<SelectedPlugin> &selected);

} // namespace prof::tool
