// prof: the command-line front end. Parses options, loads plugins and hands
// over to the command asked for.
#include "core/config/capture_profile.hpp"
#include "core/plugin_host/output_name.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "tools/prof/capture/attach_command.hpp"
#include "tools/prof/capture/capture_command.hpp"
#include "tools/prof/capture/plugin_listing.hpp"
#include "tools/prof/capture/query_command.hpp"
#include "tools/prof/capture/trigger_command.hpp"
#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/help_text.hpp"
#include "tools/prof/cli/option_rules.hpp"
#include "tools/prof/cli/profile_merge.hpp"
#include "tools/prof/cli/subcommand_table.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/reports/export_command.hpp"
#include "tools/prof/reports/import_trace_command.hpp"
#include "tools/prof/reports/merge_command.hpp"
#include "tools/prof/reports/replay_command.hpp"
#include "tools/prof/sessions/session_control.hpp"
#include "tools/prof/stats/diff_command.hpp"
#include "tools/prof/stats/outlier_ranks.hpp"
#include "tools/prof/stats/stats_command.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

using namespace prof;

namespace {

const std::pair<const char *, control::Command> kControlCommands[] = {
    {"start", control::Command::Start},     {"stop", control::Command::Stop},
    {"suspend", control::Command::Suspend}, {"resume", control::Command::Resume},
    {"cancel", control::Command::Cancel},   {"shutdown", control::Command::Shutdown},
    {"dump", control::Command::Dump}};

core::PluginRegistry load_plugins(const cli::CommandLine &command) {
  std::vector<std::filesystem::path> extra(command.plugin_paths.begin(),
                                           command.plugin_paths.end());
  core::PluginRegistry registry;
  // A listing names a plugin that crashes or hangs while loading, and goes on.
  registry.probe_loads_first(command.has("plugin-list") || command.subcommand == "plugins");
  registry.scan(core::PluginRegistry::search_path(extra));
  for (const auto &path : command.plugin_paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec))
      throw cli::UsageError("--plugin-path '" + path + "' is not a folder");
  }
  return registry;
}

config::PluginCatalog catalog_of(const core::PluginRegistry &registry) {
  config::PluginCatalog catalog;
  catalog.options_of = [&registry](std::string_view name) -> std::optional<config::OptionTable> {
    const core::PluginInfo *plugin = registry.find(std::string(name));
    if (!plugin) return std::nullopt;
    return config::OptionTable(plugin->options.data(), plugin->options.size());
  };
  catalog.installed = [&registry] {
    std::vector<std::string> names;
    for (const auto &p : registry.plugins())
      names.push_back(p.name);
    return names;
  };
  return catalog;
}

void setup_logging(const cli::CommandLine &command) {
  auto logger = spdlog::stderr_logger_mt("prof");
  logger->set_pattern("prof: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(command.has("debug") || command.has("debug-dump") ? spdlog::level::debug
                                                                      : spdlog::level::warn);
}

// Subcommands that parse their own arguments.
int run_own_arguments(const cli::SubcommandSpec &subcommand, const std::vector<std::string> &args,
                      core::Console &console) {
  switch (subcommand.route) {
  case cli::Route::Export:
    return tool::run_export(args, console);
  case cli::Route::Stats:
    return tool::run_stats(args, console);
  case cli::Route::Diff:
    return tool::run_diff(args, console);
  case cli::Route::Merge:
    return tool::run_merge(args, console, tool::outlier_ranks);
  case cli::Route::Import:
    return tool::run_trace_import(args, console);
  case cli::Route::Sessions:
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
      std::fputs(cli::help_text(subcommand).c_str(), stdout);
      return tool::kExitOk;
    }
    if (args.size() != 1 || args[0] != "list")
      throw cli::UsageError("prof sessions: expected 'prof sessions list'");
    return tool::run_session_list(console);
  case cli::Route::Options:
  case cli::Route::Status:
    break;
  }
  throw cli::UsageError("'prof " + std::string(subcommand.name) + "' takes prof's options");
}

int print_help(cli::CommandLine &command, core::Console &console) {
  // asys: `prof --help SUB` is `prof SUB --help`.
  const cli::SubcommandSpec *subcommand =
      command.subcommand_given ? cli::find_subcommand(command.subcommand) : nullptr;
  if (!subcommand && command.app.size() == 1 && command.options.size() == 1 &&
      command.plugins.empty()) {
    subcommand = cli::find_subcommand(command.app.front());
    if (subcommand) command.app.clear();
  }
  if (subcommand && subcommand->options == cli::OptionSet::Own)
    return run_own_arguments(*subcommand, {"--help"}, console);
  cli::check_option_rules(command); // --help stands alone
  std::fputs((subcommand ? cli::help_text(*subcommand) : cli::help_text()).c_str(), stdout);
  return tool::kExitOk;
}

int dispatch(cli::CommandLine &command, core::Console &console) {
  if (command.has("help")) return print_help(command, console);
  if (command.has("version")) {
    cli::check_option_rules(command); // --version stands alone
    std::printf("%s\n", cli::version_text().c_str());
    return tool::kExitOk;
  }
  if (command.subcommand == "status") return tool::run_status(command.value_or("session", ""));
  core::PluginRegistry registry = load_plugins(command);
  // (Loads every plugin to find them: only when they are printed.)
  if (spdlog::should_log(spdlog::level::debug))
    for (const auto &warning : registry.warnings())
      spdlog::debug("{}", warning);
  if (command.config_path) {
    try {
      cli::merge_capture_profile(
          command, config::load_capture_profile(*command.config_path, catalog_of(registry)));
    } catch (const config::ProfileError &e) {
      for (size_t i = 0; i + 1 < e.errors().size(); ++i)
        tool::print_error(e.errors()[i]);
      throw cli::UsageError(e.errors().empty() ? e.what() : e.errors().back());
    }
  }
  cli::check_option_rules(command);
  if (const std::string *log = command.value("log-file")) {
    std::string problem;
    if (!core::output_path_allowed(*log, command.has("force-overwrite"), &problem) ||
        !console.open_log_file(*log, &problem))
      throw cli::UsageError(problem);
  }
  console.set_quiet(command.has("quiet"));

  const tool::RunContext context{command, registry, console};
  if (command.has("plugin-list") || command.subcommand == "plugins") {
    std::fputs(tool::plugin_list_text(registry).c_str(), stdout);
    return tool::kExitOk;
  }
  for (const auto &spec : command.plugins) {
    if (!spec.help) continue;
    const core::PluginInfo *plugin = registry.find(spec.name);
    if (!plugin)
      throw cli::UsageError("--plugin \"" + spec.name + " help\": plugin " + spec.name +
                            " is not installed (installed: " + registry.names() + ")");
    std::fputs(tool::plugin_help_text(*plugin).c_str(), stdout);
    return tool::kExitOk;
  }
  if (command.has("session-list")) return tool::run_session_list(console);
  if (command.subcommand == "trigger") return tool::run_trigger(context);
  // prof start --all attaches to every waiting process.
  if (command.subcommand == "attach" || command.has("pid") || command.has("all"))
    return tool::run_attach(context);
  for (const auto &[option, control] : kControlCommands)
    if (command.has(option))
      return tool::run_session_command(control, command.value_or("session", ""),
                                       command.value_or("output", ""));
  if (command.has("visual-profiler-merge-from")) return tool::run_visual_profiler_merge(context);
  if (command.has("reset")) {
    std::printf("prof keeps no state between runs: nothing to reset\n");
    return tool::kExitOk;
  }
  if (tool::is_query(command)) return tool::run_query(context);
  if (command.has("import-profile") || command.has("import-rawdata"))
    return tool::run_replay(context);
  if (command.has_app()) return tool::run_capture(context);
  throw cli::UsageError("nothing to do: give an application to profile (see prof --help)");
}

} // namespace

int main(int argc, char **argv) {
  core::Console console;
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (const cli::SubcommandSpec *subcommand =
            args.empty() ? nullptr : cli::find_subcommand(args.front());
        subcommand && subcommand->options == cli::OptionSet::Own) {
      setup_logging(cli::CommandLine{});
      return run_own_arguments(*subcommand, {args.begin() + 1, args.end()}, console);
    }
    cli::CommandLine command = cli::parse_arguments(args);
    setup_logging(command);
    return dispatch(command, console);
  } catch (const core::InputError &e) { // cli::UsageError too
    tool::print_error(e.what());
    return tool::kExitUsage;
  } catch (const std::exception &e) {
    tool::print_error(e.what());
    return tool::kExitFailure;
  }
}
