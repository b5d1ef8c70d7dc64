// prof --help, prof SUB --help and prof --version texts.
#pragma once

#include "tools/prof/cli/subcommand_table.hpp"

#include <string>

namespace prof::cli {

/// Usage, the subcommands and every option, grouped like topsprof's tables.
std::string help_text();

/// A subcommand's usage and its own options only, marked with their scope
/// as in prof --help. For subcommands that parse prof's options.
std::string help_text(const SubcommandSpec &subcommand);

/// "[application scope]" for an option whose source runs inside the
/// application, "[system scope]" for one that runs in prof, "" otherwise.
std::string_view scope_mark(std::string_view option);

/// "prof VERSION".
std::string version_text();

} // namespace prof::cli
