// The options the gcu and sip-pmc sources share (selection, devices, buffers),
// read and checked once.
#pragma once

#include <prof/activity/selection.hpp>
#include <prof/declared_options.hpp>

#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <string>
#include <vector>

namespace prof::gcu {

/// The option rows gcu and sip-pmc share (devices, buffers, the driver),
/// read by read_capture_options(); each plugin adds its own in front.
inline constexpr prof_option_desc kSharedCaptureOptions[] = {
    {"devices", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "record only these devices, e.g. \"0,2\"; must agree with the filter; --devices"},
    {"buffer", PROF_OPTION_ENUM, "device", 0, -1, "device,host",
     "where the device writes records first; --buffer"},
    {"device-buffer-size", PROF_OPTION_INT, "64", 1, 64, nullptr,
     "device buffer per device in MB; --device-buffer-size"},
    {"host-ringbuffer-size", PROF_OPTION_INT, "16", 2, 64, nullptr,
     "host ring per device in MB; --host-ringbuffer-size"},
    {"watermark-threshold", PROF_OPTION_INT, "15", 1, 63, nullptr,
     "MB in the host ring that trigger delivery, below the ring size; --watermark-threshold"},
    {"driver", PROF_OPTION_STRING, "libgcusim.so", 0, -1, nullptr,
     "driver library used when the application has not loaded one (gcusim by default)"},
};

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
CaptureOptions read_capture_options(const DeclaredOptions &declared,
                                    const prof_gcu_topology &topology, activity::ItemKind kind,
                                    const std::string &default_filter);

/// The capture configuration for the driver (items and apis point into `options`).
prof_gcu_capture_config make_capture_config(const CaptureOptions &options);

} // namespace prof::gcu
