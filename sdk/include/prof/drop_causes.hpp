// What each cause of loss is called, and the one line that tells a user how
// many events or records a capture lost to it and what to do about it: the
// same words in the capture summary, prof's closing warnings and `prof stats`.
#pragma once

#include <prof/plugin.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace prof {

/// Every cause, in the order reports list them.
inline constexpr prof_drop_cause kDropCauses[] = {PROF_DROP_RING_FULL, PROF_DROP_DEVICE_BUFFER_FULL,
                                                  PROF_DROP_KERNEL_LOST, PROF_DROP_INVALID_EVENT,
                                                  PROF_DROP_CATALOG_FULL};

/// A short name for `cause`: "ring full", "device buffer full", ...
inline const char *drop_cause_name(prof_drop_cause cause) {
  switch (cause) {
  case PROF_DROP_RING_FULL:
    return "ring full";
  case PROF_DROP_DEVICE_BUFFER_FULL:
    return "device buffer full";
  case PROF_DROP_KERNEL_LOST:
    return "kernel lost records";
  case PROF_DROP_INVALID_EVENT:
    return "invalid event";
  case PROF_DROP_CATALOG_FULL:
    return "shared catalog full";
  }
  return "unknown cause";
}

/// One sentence saying `count` losses to `cause` and the remedy, e.g. "12
/// events were dropped because rings were full; raise --host-ringbuffer-size".
inline std::string drop_cause_line(prof_drop_cause cause, uint64_t count) {
  const std::string n = std::to_string(count);
  switch (cause) {
  case PROF_DROP_RING_FULL:
    return n + " events were dropped because rings were full; raise --host-ringbuffer-size";
  case PROF_DROP_DEVICE_BUFFER_FULL:
    return n + " device records were lost because a device buffer was full; raise "
               "--device-buffer-size";
  case PROF_DROP_KERNEL_LOST:
    return n + " records were lost by the kernel (perf buffers full); lower the sampling "
               "frequency";
  case PROF_DROP_INVALID_EVENT:
    return n + " events were refused: they named a track, string or stack their source never "
               "declared";
  case PROF_DROP_CATALOG_FULL:
    return n + " definitions from the application were lost: the shared catalog was full";
  }
  return n + " events were lost (" + drop_cause_name(cause) + ")";
}

/// What an exporter prints at its end: "Warning: " and the line of every
/// cause that lost anything, in cause order.
inline std::vector<std::string> drop_warnings(const ExportHost &host) {
  std::vector<std::string> lines;
  for (prof_drop_cause cause : kDropCauses)
    if (const uint64_t lost = host.dropped(cause); lost > 0)
      lines.push_back("Warning: " + drop_cause_line(cause, lost));
  return lines;
}

} // namespace prof
