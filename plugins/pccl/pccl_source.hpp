// The pccl source inside the profiled application: points
// NCCL_PROFILER_PLUGIN at this plugin's own file, so that NCCL (or a library
// derived from it) loads the copy already preloaded, and records what NCCL
// reports while collection is on.
#ifndef PROF_PLUGINS_PCCL_PCCL_SOURCE_HPP
#define PROF_PLUGINS_PCCL_PCCL_SOURCE_HPP

#include "pccl_recorder.hpp"

#include <prof/plugin.hpp>

namespace prof::pccl {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"events", PROF_OPTION_ENUM, "all", 0, 0, "all,collectives",
     "what NCCL reports: all (groups, collectives, point-to-point, API calls, kernel channels, "
     "proxy operations and steps, network events) or collectives (all but the proxy's and the "
     "network's, which are many)"},
};

class PcclSource {
public:
  explicit PcclSource(Host host) : host_(host) {}
  PcclSource(const PcclSource &) = delete;
  PcclSource &operator=(const PcclSource &) = delete;

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush() { return true; }
  /// At a flight recorder's dump: the collectives in flight.
  bool emit_unfinished(uint64_t now) {
    if (recorder_ && started_) recorder_->emit_unfinished(now);
    return true;
  }

private:
  Host host_;
  Detail detail_ = Detail::all;
  /// Never freed: NCCL's threads may call into it at any time, even after stop().
  PcclRecorder *recorder_ = nullptr;
  bool started_ = false;
};

} // namespace prof::pccl

#endif
