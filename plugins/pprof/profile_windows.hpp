// The windows a long capture's profile is cut into (the exporter's `rotate`
// and `per-step` options), one pprof file each, and those files' names.
#ifndef PROF_PLUGINS_PPROF_PROFILE_WINDOWS_HPP
#define PROF_PLUGINS_PPROF_PROFILE_WINDOWS_HPP

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace prof::pprof {

/// A span of session time and, for a step's window, the step; what falls in
/// it goes into one profile.
struct ProfileWindow {
  uint64_t begin = 0, end = UINT64_MAX; ///< [begin, end) on the session clock
  int64_t step = -1;                    ///< the step a sample must be in; -1: any
  /// Whether an event at `ts` in step `step` (-1 none) belongs here.
  bool holds(uint64_t ts, int64_t step_of_event) const {
    return ts >= begin && ts < end && (step < 0 || step == step_of_event);
  }
  uint64_t length() const { return end - begin; }
};

/// Windows of `period` ns from `first` to `last` (inclusive), at least one.
std::vector<ProfileWindow> time_windows(uint64_t first, uint64_t last, uint64_t period);
/// One window per step, from the first to the last event.
std::vector<ProfileWindow> step_windows(const std::set<int64_t> &steps, uint64_t first,
                                        uint64_t last);

/// The name of window `label`'s file: `path` with "-LABEL" before its
/// extension (".pb.gz", else the last one): run.pb.gz, 3 -> run-3.pb.gz.
std::string window_path(std::string_view path, std::string_view label);

} // namespace prof::pprof

#endif
