// The options the gcu and sip-pmc sources share (selection, devices, buffers),
// read and checked once.
#pragma once

#include "core/activity/selection.hpp"

#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <string>
#include <vector>

namespace prof::gcu {

struct CaptureOptions {
  activity::Selection selection;
  std::vector<uint32_t> devices; ///< empty: every device
  prof_gcu_buffer_location buffer = PROF_GCU_BUFFER_DEVICE;
  uint64_t device_buffer_bytes = 64ull << 20;
  uint64_t host_ring_bytes = 16ull << 20;
  uint64_t watermark_bytes = 15ull << 20;
};

/// Reads the selection of `kind` (option "activities" or "events", or the
/// JSON tree in "import-activities"/"import-events"; `default_filter` when
/// neither is set and it is not empty), --devices and the buffer options.
/// Throws std::runtime_error with a one-line message naming the option.
CaptureOptions read_capture_options(const Host &host, const prof_gcu_topology &topology,
                                    activity::ItemKind kind, const std::string &default_filter);

/// The capture configuration for the driver (items and apis point into `options`).
prof_gcu_capture_config make_capture_config(const CaptureOptions &options);

} // namespace prof::gcu
