// When a capture collects: from launch, after --delay, for --duration
// (rotating with --trace-rotation), between prof_start()/prof_stop() or an
// annotation range (--capture-range), or when told (start/stop commands,
// the interactive prompt). Read from the command line, checked whole.
#pragma once

#include "tools/prof/cli/command_line.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace prof::tool {

enum class CaptureRange { None, ProfilerApi, Annotation };
enum class RangeEnd { Stop, StopShutdown, Repeat, RepeatShutdown };

struct CapturePlan {
  bool from_start = true; ///< --profile-from-start
  std::chrono::nanoseconds delay{0};
  std::chrono::nanoseconds duration{0}; ///< 0: until the application ends
  int kill_signal = 15;                 ///< sent at the end of --duration or on shutdown; 0: none
  CaptureRange range = CaptureRange::None;
  std::string annotation_name;   ///< --annotation-capture NAME[@DOMAIN]
  std::string annotation_domain; ///< "" the default domain, "*" any
  RangeEnd range_end = RangeEnd::StopShutdown;
  uint32_t range_limit = 0; ///< repeat:N; 0 without limit
  uint32_t rotation = 0;    ///< --trace-rotation: reports kept
  bool interactive = false; ///< --dynamic on: the (prof) prompt
  bool attached = false;    ///< prof attach: the end of --duration detaches
  std::chrono::seconds prompt_timeout{1800};

  /// Whether a window opens at launch.
  bool collects_at_launch() const {
    return from_start && delay.count() == 0 && range == CaptureRange::None && !interactive;
  }
  /// Whether windows come and go during the capture (reports get indexes).
  bool windowed() const { return !collects_at_launch() || duration.count() > 0; }
};

/// Throws cli::UsageError naming the option for a bad value or combination.
CapturePlan capture_plan(const cli::CommandLine &command);

/// "2.5" seconds as nanoseconds; throws cli::UsageError naming `option`.
std::chrono::nanoseconds parse_seconds(const std::string &option, const std::string &text);

/// A signal by name or number ("sigterm", "SIGKILL", "9", "none" = 0);
/// throws cli::UsageError naming `option`.
int parse_signal(const std::string &option, const std::string &text);

} // namespace prof::tool
