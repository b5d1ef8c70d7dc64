// When a capture collects: from launch, after a delay, for a duration
// (rotating), between the application's capture requests or an annotation
// range, or when told (start/stop commands, the interactive prompt). The
// front end reads it from its options (tools/prof/capture/capture_plan_options.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace prof::core {

enum class CaptureRange { None, ProfilerApi, Annotation, Steps };
enum class RangeEnd { Stop, StopShutdown, Repeat, RepeatShutdown };

struct CapturePlan {
  bool from_start = true; ///< --profile-from-start
  std::chrono::nanoseconds delay{0};
  std::chrono::nanoseconds duration{0}; ///< 0: until the application ends
  int kill_signal = 15;                 ///< sent at the end of --duration or on shutdown; 0: none
  CaptureRange range = CaptureRange::None;
  std::string annotation_name;   ///< --annotation-capture NAME[@DOMAIN]
  std::string annotation_domain; ///< "" the default domain, "*" any
  uint32_t step_count = 0;       ///< --capture-steps K: the window holds K steps
  uint64_t at_step = 0;          ///< --at-step S: the first of them; 0: prof picks
  uint32_t step_processes = 0;   ///< processes that join (attach), 0: launched
  RangeEnd range_end = RangeEnd::StopShutdown;
  uint32_t range_limit = 0;       ///< repeat:N; 0 without limit
  uint32_t rotation = 0;          ///< --trace-rotation: reports kept
  bool interactive = false;       ///< --dynamic on: the (prof) prompt
  bool attached = false;          ///< prof attach: the end of --duration detaches
  bool stop_ends_capture = false; ///< prof start --all: `prof stop` ends it all
  /// --flight-recorder SIZE: the latest SIZE of events, written on dumps.
  uint64_t flight_bytes = 0;
  uint64_t flight_ns = 0; ///< --flight-recorder SECONDS: the latest SECONDS of them
  /// --hang-timeout: dump when a process made no step that long.
  uint64_t hang_timeout_ns = 0;
  std::string step_marker_name;   ///< --step-marker NAME[@DOMAIN]: annotation ranges ending steps
  std::string step_marker_domain; ///< "" the default domain, "*" any
  std::chrono::seconds prompt_timeout{1800};
  /// The front end splits each window's report (per process, per rank) and
  /// names the parts it writes: the whole is not announced.
  bool reports_split = false;

  /// Whether a window opens at launch.
  bool collects_at_launch() const {
    return from_start && delay.count() == 0 && range == CaptureRange::None && !interactive;
  }
  /// Whether windows come and go during the capture (reports get indexes).
  bool windowed() const { return !collects_at_launch() || duration.count() > 0; }
};

} // namespace prof::core
