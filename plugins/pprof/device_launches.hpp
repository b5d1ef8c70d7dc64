// Device kernels tied to the host calls that launched them: a kernel slice
// and a runtime or driver API slice with one correlation id (event.h) are
// one launch. What the pprof exporter puts under the launching thread's
// stack, with the kernel's time.
#ifndef PROF_PLUGINS_PPROF_DEVICE_LAUNCHES_HPP
#define PROF_PLUGINS_PPROF_DEVICE_LAUNCHES_HPP

#include <prof/plugin.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace prof::pprof {

/// A host call that launched device work.
struct LaunchCall {
  prof_track_id track = 0; ///< the calling thread
  prof_string_id name = 0;
  uint64_t begin = 0, end = 0;
};

/// A kernel and, when one carries its correlation id, the call that launched it.
struct LaunchedKernel {
  prof_track_id device = 0; ///< the track it ran on
  prof_string_id name = 0;
  uint64_t ts = 0, duration = 0;
  const LaunchCall *call = nullptr; ///< null when no call has its correlation id
};

class DeviceLaunches {
public:
  /// Takes `e` if it is a kernel or an API call with a correlation id.
  void add(const prof_event &e);
  /// Every kernel, with its call where there is one (valid while this lives).
  std::vector<LaunchedKernel> kernels() const;
  bool empty() const { return kernels_.empty(); }

private:
  struct Kernel {
    uint64_t correlation = 0;
    prof_track_id device = 0;
    prof_string_id name = 0;
    uint64_t ts = 0, duration = 0;
  };
  std::vector<Kernel> kernels_;
  std::unordered_map<uint64_t, LaunchCall> calls_; ///< by correlation id
};

} // namespace prof::pprof

#endif
