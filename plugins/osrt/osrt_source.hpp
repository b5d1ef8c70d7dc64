// The osrt source: OS runtime tracing inside the profiled process. The
// interposers (interpose_*.cpp) are always there, exported by the preloaded
// plugin; they pass every call straight through until an instance starts,
// then time the calls and hand the long ones to this instance's recorder.
#ifndef PROF_PLUGINS_OSRT_OSRT_SOURCE_HPP
#define PROF_PLUGINS_OSRT_OSRT_SOURCE_HPP

#include "call_recorder.hpp"
#include "osrt_settings.hpp"

#include <prof/plugin.hpp>

#include <memory>

namespace prof::osrt {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"threshold", PROF_OPTION_INT, "1000", 0, 1e12, nullptr,
     "calls shorter than this many ns are not recorded (--osrt-threshold)"},
    {"backtrace-threshold", PROF_OPTION_INT, "80000", 0, 1e12, nullptr,
     "calls at least this many ns long carry a call stack (--osrt-backtrace-threshold)"},
    {"backtrace-depth", PROF_OPTION_INT, "24", 1, 127, nullptr,
     "most frames in a recorded call stack (--osrt-backtrace-depth)"},
    {"python-backtrace", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "call stacks of CPython 3.11-3.13 processes show the Python frames (--python-backtrace)"},
    {"timer", PROF_OPTION_ENUM, "auto", 0, -1, "auto,monotonic",
     "how calls are timed: auto (the TSC where the kernel trusts it) or monotonic (vDSO clock)"},
};

class OsrtSource {
public:
  explicit OsrtSource(Host host) : host_(host) {}
  ~OsrtSource();
  OsrtSource(const OsrtSource &) = delete;
  OsrtSource &operator=(const OsrtSource &) = delete;

  bool configure();
  /// Fails when another osrt instance already traces this process.
  bool start();
  /// Returns once no thread is recording into this instance any more.
  bool stop();
  bool suspend();
  bool resume();
  bool flush() { return true; }
  /// The calls threads are inside now, at a flight recorder's dump.
  bool emit_unfinished(uint64_t now);

  const OsrtSettings &settings() const { return settings_; }

private:
  Host host_;
  OsrtSettings settings_;
  std::unique_ptr<CallRecorder> recorder_;
  bool started_ = false;
};

} // namespace prof::osrt

#endif
