// The application's environment as asys sets it: -e KEY=VAL,... adds
// variables, --inherit-environment false starts from an empty one; and
// whether its output is shown (--show-output, --quiet, --print-app-log).
#pragma once

#include "tools/prof/cli/command_line.hpp"

#include <string>
#include <vector>

namespace prof::tool {

struct ApplicationEnvironment {
  std::vector<std::string> variables; ///< "KEY=VALUE", in the order given
  bool inherit = true;
  /// --show-output when given; else shown unless --quiet (topsprof's quiet
  /// mode hides the application too) without --print-app-log.
  bool show_output = true;
};

/// Throws cli::UsageError naming the entry for anything but KEY=VALUE with
/// KEY made of letters, digits and '_' (not starting with a digit).
ApplicationEnvironment application_environment(const cli::CommandLine &command);

} // namespace prof::tool
