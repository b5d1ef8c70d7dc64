// The records a .profrep holds besides events: what ReportWriter takes and
// ReportReader gives back.
#pragma once

#include <prof/event.h>
#include <prof/plugin.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace prof::report {

/// A plugin that took part in the capture, with the options it ran with.
struct PluginRecord {
  std::string name;
  std::string version;
  std::vector<std::pair<std::string, std::string>> options;
  bool operator==(const PluginRecord &) const = default;
};

/// CLOCK_REALTIME and CLOCK_MONOTONIC read at the same moment: maps session
/// time to wall-clock time.
struct ClockAnchor {
  uint64_t realtime_ns = 0;
  uint64_t monotonic_ns = 0;
  bool operator==(const ClockAnchor &) const = default;
};

/// The first chunk: what was captured, where and how.
struct Header {
  uint32_t format_version = 0; ///< filled by the reader; the writer always writes its own
  std::string session_name;
  std::vector<std::string> argv;
  std::string command_display; ///< the command line as shown to users
  std::vector<int32_t> pids;
  std::string host_name;
  std::vector<PluginRecord> plugins;
  ClockAnchor clock_anchor;
  uint64_t session_start_ns = 0;
  /// The launcher's rank of the profiled process (RANK, OMPI_COMM_WORLD_RANK,
  /// PMI_RANK or SLURM_PROCID in its environment), "" when none.
  std::string rank;
  /// The launcher's world size beside that rank (WORLD_SIZE,
  /// OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_NTASKS), "" when none.
  std::string world_size;
  bool operator==(const Header &) const = default;
};

/// An imported trace without a wall clock gets its start as a stand-in
/// anchor, and its importer's record says so with this option and value.
inline constexpr const char *kImportClockOption = "clock";
inline constexpr const char *kImportClockStandIn = "start";

/// Whether `header`'s anchor reads a wall clock (not a stand-in).
inline bool has_wall_clock(const Header &header) {
  if (header.clock_anchor.realtime_ns == 0) return false;
  for (const PluginRecord &plugin : header.plugins)
    for (const auto &[key, value] : plugin.options)
      if (key == kImportClockOption && value == kImportClockStandIn) return false;
  return true;
}

/// A declared track (prof_track_desc with resolved text).
struct TrackRecord {
  uint32_t id = 0;
  prof_track_kind kind = PROF_TRACK_CUSTOM;
  uint32_t parent = 0;
  std::string name;
  int32_t pid = 0;
  int32_t tid = 0;
  int32_t index = -1;
  std::string unit;
  uint32_t clock = PROF_CLOCK_SESSION;
  /// PROF_TRACK_* bits; stored in TRACK_FLAGS chunks, which older readers skip.
  uint32_t flags = 0;
  bool operator==(const TrackRecord &) const = default;
};

/// An interned call stack: frames are function-name string ids, leaf first.
struct StackRecord {
  uint32_t id = 0;
  std::vector<uint32_t> frames;
  bool operator==(const StackRecord &) const = default;
};

/// An argument set: the typed arguments of slices and instants (string ids
/// for keys and string values).
struct ArgsRecord {
  uint32_t id = 0;
  std::vector<prof_arg> args;
  bool operator==(const ArgsRecord &other) const {
    if (id != other.id || args.size() != other.args.size()) return false;
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].key != other.args[i].key || args[i].type != other.args[i].type ||
          args[i].value.u != other.args[i].value.u)
        return false;
    return true;
  }
};

/// `domain_ticks` in a clock domain happened at `session_ns`.
struct ClockCalibration {
  uint64_t domain_ticks = 0;
  uint64_t session_ns = 0;
  bool operator==(const ClockCalibration &) const = default;
  auto operator<=>(const ClockCalibration &) const = default;
};

/// A registered clock domain and its calibration pairs.
struct ClockDomainRecord {
  uint32_t id = 0;
  std::string name;
  double frequency_hz = 0;
  std::vector<ClockCalibration> calibration;
  bool operator==(const ClockDomainRecord &) const = default;
};

/// Ring-full drops are recorded per ring. Every other cause of loss has one
/// drop record of its own, under a ring number no ring can have: the top 16.
inline constexpr uint32_t kFirstCauseRing = UINT32_MAX - 15;
/// The ring number of the drop record that counts events refused because
/// they named a track, string or stack their source never declared (the
/// first cause recorded, so its number is kept).
inline constexpr uint32_t kInvalidEventsRing = UINT32_MAX;

/// The ring number of `cause`'s drop record; 0, no cause ring, for
/// PROF_DROP_RING_FULL and an unknown cause.
constexpr uint32_t cause_ring(prof_drop_cause cause) {
  switch (cause) {
  case PROF_DROP_INVALID_EVENT:
    return kInvalidEventsRing;
  case PROF_DROP_DEVICE_BUFFER_FULL:
    return UINT32_MAX - 1;
  case PROF_DROP_KERNEL_LOST:
    return UINT32_MAX - 2;
  case PROF_DROP_CATALOG_FULL:
    return UINT32_MAX - 3;
  default:
    return 0;
  }
}
constexpr bool is_cause_ring(uint32_t ring) { return ring >= kFirstCauseRing; }
/// The cause a cause ring counts; PROF_DROP_RING_FULL for a real ring (and
/// for a cause number a later prof may write).
constexpr prof_drop_cause cause_of_ring(uint32_t ring) {
  for (prof_drop_cause cause : {PROF_DROP_DEVICE_BUFFER_FULL, PROF_DROP_KERNEL_LOST,
                                PROF_DROP_INVALID_EVENT, PROF_DROP_CATALOG_FULL})
    if (cause_ring(cause) == ring) return cause;
  return PROF_DROP_RING_FULL;
}

/// Events one ring has dropped so far: a running total, so the last record
/// for a ring is the one that counts.
struct DropRecord {
  uint32_t ring = 0;
  int32_t tid = 0;
  uint64_t dropped = 0;
  bool operator==(const DropRecord &) const = default;
};

/// The END chunk: present only when the capture finished cleanly.
struct Footer {
  uint64_t end_ns = 0;
  uint64_t events_written = 0;
  uint64_t dropped = 0;
  int32_t exit_status = 0;       ///< the application's exit code
  bool killed_by_signal = false; ///< the application died of `signal`
  int32_t signal = 0;
  bool operator==(const Footer &) const = default;
};

} // namespace prof::report
