// Turns prof's argv into a CommandLine (Boost.Program_options underneath).
#pragma once

#include "core/config/option_validator.hpp"
#include "tools/prof/cli/command_line.hpp"
#include "tools/prof/cli/option_table.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace prof::cli {

/// Parses the arguments after the program name: `[profile|plugins] [options]
/// [--] [app [app-args]]`. Options are `--opt value`, `--opt=value`,
/// `-opt value`, `-opt=value`, and the short forms -o -t -s -w -h. The
/// application starts at the first word that is neither an option nor an
/// option's value; everything from there on is the application's. Checks
/// each value (types, ranges, session names, --plugin specs) but not the
/// rules between options: call check_option_rules() after merging any
/// capture profile. Throws UsageError.
CommandLine parse_arguments(const std::vector<std::string> &args);

/// parse_arguments(argv[1..]) followed by check_option_rules(). For callers
/// that do not load a --config profile.
CommandLine parse_command_line(int argc, const char *const argv[]);

/// Checks and normalizes one option value. The error reads e.g.
/// "--cpu-profiling-frequency 500 is out of range: expected 1 to 100".
config::ValueCheck check_option_value(const OptionSpec &spec, std::string_view value);

} // namespace prof::cli
