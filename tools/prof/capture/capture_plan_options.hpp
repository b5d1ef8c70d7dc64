// The capture plan (core/capture/capture_plan.hpp) read from the options:
// when a capture collects, from launch, after --delay, for --duration
// (rotating with --trace-rotation), between prof_start()/prof_stop() or an
// annotation range (--capture-range), or when told (start/stop commands,
// the interactive prompt). Read from the command line, checked whole.
#pragma once

#include "core/capture/capture_plan.hpp"
#include "tools/prof/cli/command_line.hpp"

#include <chrono>
#include <string>

namespace prof::tool {

using core::CapturePlan;
using core::CaptureRange;
using core::RangeEnd;

/// Throws cli::UsageError naming the option for a bad value or combination.
CapturePlan capture_plan(const cli::CommandLine &command);

/// "2.5" seconds as nanoseconds; throws cli::UsageError naming `option`.
std::chrono::nanoseconds parse_seconds(const std::string &option, const std::string &text);

/// A signal by name or number ("sigterm", "SIGKILL", "9", "none" = 0);
/// throws cli::UsageError naming `option`.
int parse_signal(const std::string &option, const std::string &text);

} // namespace prof::tool
