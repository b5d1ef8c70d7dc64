// Folds a YAML capture profile into a parsed command line.
#pragma once

#include "core/config/capture_profile.hpp"
#include "tools/prof/cli/command_line.hpp"

namespace prof::cli {

/// Adds the profile's `options:` and `plugins:` to `command`, so that
/// check_option_rules() sees both. An option on the command line wins over
/// the profile's; a --plugin spec's keys win over the profile's keys for
/// that plugin. Option names and values get the command line's checks;
/// flags take true/false (false leaves them unset), a bare `name:` means
/// true. config, plugin, plugin-path, help and version cannot be set in a
/// profile. Throws UsageError "prof: FILE:LINE:COLUMN: reason".
void merge_capture_profile(CommandLine &command, const config::CaptureProfile &profile);

} // namespace prof::cli
