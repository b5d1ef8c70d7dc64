// The application's environment as asys sets it: -e KEY=VAL,... adds
// variables, --inherit-environment false starts from an empty one.
#pragma once

#include "tools/prof/cli/command_line.hpp"

#include <string>
#include <vector>

namespace prof::tool {

struct ApplicationEnvironment {
  std::vector<std::string> variables; ///< "KEY=VALUE", in the order given
  bool inherit = true;
};

/// Throws cli::UsageError naming the entry for anything but KEY=VALUE with
/// KEY made of letters, digits and '_' (not starting with a digit).
ApplicationEnvironment application_environment(const cli::CommandLine &command);

} // namespace prof::tool
