// Shared helpers for the command-line tests.
#pragma once

#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/option_rules.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <string>
#include <vector>

namespace prof::cli::testing {

/// Parses and checks the rules, like prof does without a profile.
inline CommandLine parse(const std::vector<std::string> &args) {
  CommandLine command = parse_arguments(args);
  check_option_rules(command);
  return command;
}

/// The UsageError message `args` produce, or "no error".
inline std::string error_of(const std::vector<std::string> &args) {
  try {
    parse(args);
  } catch (const UsageError &error) {
    return error.what();
  }
  return "no error";
}

} // namespace prof::cli::testing
