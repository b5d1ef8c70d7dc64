// The files of a --debug-dump folder, as text: what a bug report needs to
// know of a capture.
#pragma once

#include "core/plugin_host/plugin_registry.hpp"
#include "core/report/report_model.hpp"
#include "tools/prof/cli/command_line.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// Where prof ran.
struct EnvironmentFacts {
  std::string prof_version; ///< "prof 0.9.0"
  std::string kernel;       ///< "Linux 6.1.0-18-amd64 #1 SMP ... x86_64"
  std::string host;
  std::string time_utc; ///< "2026-12-01T20:38:55Z"
  int prof_pid = 0;
  std::string working_folder;
  std::string plugin_path; ///< PROF_PLUGIN_PATH, "" when unset
};

/// The facts of this process and machine.
EnvironmentFacts environment_facts();

/// configuration.txt: the command, then every option after profile merging,
/// one a line ("--name" or "--name=value", "  (from FILE:LINE:COL)" when a
/// profile set it), the plugin specs and plugin folders.
std::string configuration_text(const cli::CommandLine &command);

/// plugins.txt: the --plugin-list text, then the capture's plugins with the
/// options they ran with (the report header's records).
std::string plugins_text(const core::PluginRegistry &registry, const report::Header &header);

/// environment.txt.
std::string environment_text(const EnvironmentFacts &facts);

/// chunks.txt: for each report, how it reads and its chunks (type, flags,
/// sizes, events), by type and one a line; says so when there is none.
std::string chunks_text(const std::vector<std::string> &reports);

} // namespace prof::tool
