// topsprof's rules between options (manual section 2.8), applied to prof.
#pragma once

#include "tools/prof/cli/command_line.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace prof::cli {

/// Checks the rules between options, throwing UsageError with a one-line
/// message naming the options involved. In order:
///  1. conflict groups (conflict_groups());
///  2. --watermark-threshold below --host-ringbuffer-size;
///  3. stand-alone options (standalone_options()), --plugin "NAME help" and
///     the --visual-profiler-merge-from/-to pair: nothing else but the
///     output modifiers (modifier_options(), --plugin-path);
///  4. control options: alone or with --session (and the modifiers);
///  5. without an application: capture-only options are refused; a saved
///     capture (--import-profile, --import-rawdata) or --sample system-wide
///     needs none; anything else asks for an application;
///  6. with an application: no --import-profile/--import-rawdata, and the
///     capture needs one of capture_selectors(), --plugin, --config, --trace
///     or --sample.
/// Options that came from a capture profile are shown with their position.
void check_option_rules(const CommandLine &command);

/// Options of which at most one of each group may be given.
std::span<const std::vector<std::string_view>> conflict_groups();
/// Options that must be given alone.
std::span<const std::string_view> standalone_options();
/// Options that only make sense when launching an application.
std::span<const std::string_view> capture_only_options();
/// topsprof's "a capture needs one of" list.
std::span<const std::string_view> capture_selectors();
/// Options that may accompany stand-alone and control options.
std::span<const std::string_view> modifier_options();
/// start, stop, suspend, resume, cancel.
std::span<const std::string_view> control_options();

} // namespace prof::cli
