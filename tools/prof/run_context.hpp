// What every prof command shares once the command line is parsed: the
// console, the plugin registry and the parsed options.
#pragma once

#include "core/plugin_host/console.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "tools/prof/cli/command_line.hpp"

namespace prof::tool {

/// Exit codes of prof (DESIGN.md, "CLI shape").
enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

struct RunContext {
  const cli::CommandLine &command;
  const core::PluginRegistry &registry;
  core::Console &console;
};

/// Prints "prof: MESSAGE" on stderr.
void print_error(const std::string &message);

/// What prof says of an EVENTS chunk at `offset` of report `path` that would
/// not decode.
std::string malformed_chunk_warning(const std::string &path, uint64_t offset);

} // namespace prof::tool
