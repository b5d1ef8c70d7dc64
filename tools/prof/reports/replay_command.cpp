#include "tools/prof/reports/replay_command.hpp"

#include "tools/prof/capture/plugin_selection.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/reports/report_folder.hpp"
#include "tools/prof/reports/saved_report.hpp"

#include <filesystem>
#include <memory>

namespace prof::tool {

namespace {

// Removes a file when the import ends.
struct TemporaryReport {
  std::string path;
  ~TemporaryReport() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove(path, ec);
  }
};

} // namespace

int run_replay(const RunContext &context) {
  // --import-rawdata names the same native report.
  std::string path =
      context.command.value_or("import-profile", context.command.value_or("import-rawdata", ""));
  // A folder holds the reports of several processes or ranks: they are read
  // as one, merged on their realtime anchors.
  TemporaryReport merged;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    path = merged.path = merge_folder_to_temporary(path, context.console);
  PluginSelection selection = select_plugins(context.command, context.registry);
  if (!selection.sources.empty())
    throw cli::UsageError(selection.sources.front().requested_by +
                          ": sources cannot run on a saved report");

  return export_saved_report(path, selection.exporters, context.console);
}

} // namespace prof::tool
