// The agent's side of the shared catalog: strings, tracks, stacks and clock
// domains defined in a profiled process get ids of the shared region and are
// appended to its log, where prof reads them before the events that use them.
#pragma once

#include "core/runtime/raw_mutex.hpp"
#include "core/runtime/shm_region.hpp"

#include <prof/event.h>

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::core {

class ShmCatalogWriter {
public:
  explicit ShmCatalogWriter(ShmRegion &region) : region_(region) {}

  /// Each returns the shared id, or 0 when the log is full (counted).
  prof_string_id intern_string(std::string_view text);
  /// `names_process`: the agent's declaration at the start of an image
  /// (kShmTrackNamesProcess).
  prof_track_id declare_track(const prof_track_desc &desc, bool names_process = false);
  prof_stack_id intern_stack(std::span<const prof_string_id> frames);
  /// Tracks declared with pid `own` are written with `seen` instead: prof
  /// knows a process in a container by its host pid.
  void write_pid_as(int32_t own, int32_t seen) {
    own_pid_ = own;
    seen_pid_ = seen;
  }
  prof_clock_id register_clock(std::string_view name, double frequency_hz);
  /// A clock's pairs reach the log once per kCalibrationSpacingNs at most:
  /// the log is written once and never reclaimed, and a source calibrating
  /// ten times a second (as gcu's does) filled it in hours; a drift is
  /// followed as well from pairs a second apart. False when left out.
  bool add_calibration(prof_clock_id clock, uint64_t ticks, uint64_t session_ns);
  static constexpr uint64_t kCalibrationSpacingNs = 1'000'000'000;

private:
  /// Appends one record under the region's lock; `fill` writes the payload
  /// given the id the record gets from `counter` (nullptr: no id). Returns
  /// the id, or 0 when the log is full.
  template <class Fill>
  uint32_t append(uint16_t type, size_t payload_bytes, uint32_t *counter, Fill &&fill,
                  uint16_t flags = 0);
  void lock();
  void unlock();

  ShmRegion &region_;
  RawMutex mutex_; // this process's threads; the region lock orders processes
  std::unordered_map<std::string, prof_string_id> strings_;
  std::map<std::vector<prof_string_id>, prof_stack_id> stacks_;
  std::unordered_map<prof_clock_id, uint64_t> calibrated_ns_; ///< each clock's last pair
  int32_t own_pid_ = 0, seen_pid_ = 0;                        // 0: pids are written as declared
};

} // namespace prof::core
