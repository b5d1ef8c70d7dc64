// Tracks of the GCU device tree (device > cluster > engine > instance,
// streams under device-level engines, the device's memory row and counter)
// and one clock domain per device, made on first use. Shared by the gcu and
// sip-pmc sources.
//
// Owners (ABI 1.10): the rows of the work a capture's process launched (its
// streams, the engine instances that ran its records, its memory rows and
// buffer counts) are that process's, the `owner` given; the device itself,
// its clusters, engines as containers, utilization and performance counters
// are PROF_TRACK_SHARED.
#pragma once

#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace prof::gcu {

class DeviceTracks {
public:
  /// `owner`: the pid whose work the capture sees (getpid() of a
  /// process-scope source), 0 when the work is no one process's.
  DeviceTracks(const Host &host, const prof_gcu_driver &driver, int owner = 0);

  /// The clock domain of `device`'s clock, registered and calibrated on first use.
  prof_clock_id clock(uint32_t device);
  /// Adds a fresh calibration pair to every registered device clock.
  void calibrate();

  prof_track_id device(uint32_t device);
  /// A cluster ("Cluster 1"), or the device itself for group -1.
  prof_track_id group(uint32_t device, int32_t group, uint32_t group_index);
  /// The engine instance a record belongs to, on the device clock.
  prof_track_id engine_instance(uint32_t device, int32_t group, uint32_t group_index,
                                uint32_t engine, uint32_t engine_index);
  /// A stream's row under a device-level engine ("General" > "Stream 3"), device clock.
  prof_track_id stream(uint32_t device, uint32_t engine, uint32_t stream);
  /// A counter of an engine instance ("SIPPMC 2" > "sip_busy_with_wait"), device clock.
  prof_track_id counter(uint32_t device, int32_t group, uint32_t group_index, uint32_t engine,
                        uint32_t engine_index, uint32_t event);
  /// The device's "Memory" row of allocation and free instants, device clock.
  prof_track_id memory(uint32_t device);
  /// The device's "Memory used" counter (bytes), device clock.
  prof_track_id memory_used(uint32_t device);
  /// A utilization counter in percent on the session clock, under `parent`.
  prof_track_id utilization(prof_track_id parent, const std::string &name);

private:
  prof_clock_id clock_locked(uint32_t device);
  prof_track_id engine_kind_locked(uint32_t device, int32_t group, uint32_t group_index,
                                   uint32_t engine);
  prof_track_id instance_locked(uint32_t device, int32_t group, uint32_t group_index,
                                uint32_t engine, uint32_t engine_index);
  prof_track_id group_locked(uint32_t device, int32_t group, uint32_t group_index);
  prof_track_id device_locked(uint32_t device);
  prof_track_id device_child(uint32_t device, int64_t what, prof_track_kind kind, const char *name,
                             const char *unit);

  /// A track of the work the capture sees, or of the device every process shares.
  prof_track_id owned(prof_track_kind kind, const std::string &name, prof_track_id parent,
                      int index, const char *unit, prof_clock_id clock) const;
  prof_track_id shared(prof_track_kind kind, const std::string &name, prof_track_id parent,
                       int index, const char *unit = nullptr,
                       prof_clock_id clock = PROF_CLOCK_SESSION) const;

  const Host &host_;
  const prof_gcu_driver &driver_;
  const prof_gcu_topology &topology_;
  const int owner_;
  std::mutex mutex_;
  std::map<uint32_t, prof_clock_id> clocks_;
  // (device, group, group index, engine, engine index, what): what is -1 for
  // the engine kind, -2 for the instance, -3 - stream, >= 0 an event; the
  // memory row and counter have engine -2 and -3.
  std::map<std::tuple<uint32_t, int32_t, uint32_t, int64_t, int64_t, int64_t>, prof_track_id>
      tracks_;
};

} // namespace prof::gcu
