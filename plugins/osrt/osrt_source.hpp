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
