// The gcu source (process scope): device activities, memory allocations and
// the runtime API trace of a GCU, through the vendor-driver interface.
#pragma once

#include "activity_kinds.hpp"
#include "capture_options.hpp"
#include "device_tracks.hpp"
#include "memory_events.hpp"
#include "utilization_sampler.hpp"

#include <prof/flow_matcher.hpp>
#include <prof/gcu_driver.h>
#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::gcu {

/// The options of this plugin alone.
inline constexpr prof_option_desc kGcuOwnOptions[] = {
    {"activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "activities to record, topsprof's filter string (e.g. \"*/general/operator|Api "
     "Trace/RUNTIME/*\"); --enable-activities"},
    {"import-activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "JSON tree of activities (isCheck leaves) to record; --import-activities"},
    {"export-activities", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "write the activity tree as JSON to this file and stop; --export-activities"},
    {"metrics", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "a metric whose default activities apply when none are selected; --metrics"},
    {"utilization", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "sample device and cluster utilization; --gcu-utilization"},
    {"utilization-frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "utilization samples per second (Hz); --gcu-utilization-frequency"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "replace an existing --export-activities file; --force-overwrite"},
};
/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr auto kGcuOptions = join_options(kGcuOwnOptions, kSharedCaptureOptions);

class GcuSource {
public:
  explicit GcuSource(Host host);
  ~GcuSource();

  bool query(std::string_view what, QueryPrinter print, void *ctx);
  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  static void on_records(void *self, const prof_gcu_record *records, size_t count);
  static void on_api(void *self, const prof_gcu_api_record *record);
  void emit_activity(const prof_gcu_record &record);
  void emit_memory(const prof_gcu_record &record);
  /// A label's interned text and the category it names (0 for none).
  struct Label {
    prof_string_id name = 0;
    uint16_t category = 0;
  };
  const Label &label(uint32_t id);
  void report_drops();

  Host host_;
  // Set while driver_ is initialized, so declared before it.
  const prof_gcu_topology *topology_ = nullptr;
  const prof_gcu_driver *driver_ = nullptr;
  ActivityKinds kinds_;
  CaptureOptions options_;
  std::unique_ptr<DeviceTracks> tracks_;
  std::unique_ptr<MemoryEvents> memory_;
  std::unique_ptr<UtilizationSampler> utilization_;
  PeriodicThread calibration_;
  uint32_t handle_ = 0;
  bool subscribed_ = false;
  int pid_ = 0;
  bool api_traced_ = false;
  FlowMatcher flows_{host_};
  // Interned names, filled on the driver's delivery thread only.
  std::vector<std::vector<prof_string_id>> activity_names_; // [engine][activity]
  std::vector<std::vector<prof_string_id>> api_names_;      // [domain][function]
  std::unordered_map<uint32_t, Label> labels_;
  prof_string_id api_category_ = 0;
  prof_string_id bytes_key_ = 0;
};

} // namespace prof::gcu
