// The sip-pmc source (process scope): per-SIP performance counters of a GCU
// (busy cycles with and without waits, instructions, stalls), one value per
// operator and SIP, tied to the operator by its correlation id.
#pragma once

#include "capture_options.hpp"
#include "device_tracks.hpp"

#include <prof/gcu_driver.h>
#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <memory>

namespace prof::gcu {

/// The options of this plugin alone.
inline constexpr prof_option_desc kSipPmcOwnOptions[] = {
    {"events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "events to record, topsprof's filter string (e.g. \"*/*/sippmc/sip_busy_with_wait\"); "
     "--enable-events"},
    {"import-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "JSON tree of events (isCheck leaves) to record; --import-events"},
    {"export-events", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "write the event tree as JSON to this file and stop; --export-events"},
    {"metrics", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "a metric (sip_busy_efficiency_per_op) whose default events apply when none are selected; "
     "--metrics"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing --export-events file; --force-overwrite"},
};
/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr auto kSipPmcOptions = join_options(kSipPmcOwnOptions, kSharedCaptureOptions);

class SipPmcSource {
public:
  explicit SipPmcSource(Host host);
  ~SipPmcSource();

  bool query(std::string_view what, QueryPrinter print, void *ctx);
  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  static void on_records(void *self, const prof_gcu_record *records, size_t count);

  Host host_;
  // Set while driver_ is initialized, so declared before it.
  const prof_gcu_topology *topology_ = nullptr;
  const prof_gcu_driver *driver_ = nullptr;
  CaptureOptions options_;
  std::unique_ptr<DeviceTracks> tracks_;
  PeriodicThread calibration_;
  uint32_t handle_ = 0;
  bool subscribed_ = false;
  int pid_ = 0;
};

} // namespace prof::gcu
