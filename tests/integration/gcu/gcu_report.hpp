// What the GCU tests read out of a report: device slices with the device,
// cluster and engine they ran on, API slices, flows and counters.
#pragma once

#include "core/report/report_reader.hpp"

#include <map>
#include <string>
#include <vector>

namespace prof::e2e {

struct DeviceSlice {
  std::string name;     ///< kernel or activity name
  std::string activity; ///< the category: "Operator", "SIP Busy", ...
  int device = -1;
  std::string path;     ///< "GCU 0/Cluster 1/SIP/SIP 3"
  uint64_t ts = 0;
  uint64_t duration = 0;
  uint64_t id = 0;
  uint16_t kind = 0;  ///< the well-known category (prof_category)
  uint64_t bytes = 0; ///< the `bytes` argument, 0 when none
};

struct HostSlice {
  std::string name;
  std::string category;
  int tid = 0;
  uint64_t ts = 0;
  uint64_t duration = 0;
  uint64_t id = 0;
  uint16_t kind = 0;
};

struct CounterSample {
  std::string name; ///< the counter track's name
  std::string path; ///< the track path
  uint64_t ts = 0;
  double value = 0;
  uint64_t id = 0;
};

struct GcuReport {
  std::vector<DeviceSlice> device;
  std::vector<HostSlice> host;
  std::vector<CounterSample> counters;
  uint64_t device_instants = 0;        ///< instants under a device (memory events)
  std::map<uint64_t, int> flow_begins; ///< flow id -> count
  std::map<uint64_t, int> flow_ends;
};

/// Reads every event of the report at `path`; fails the test on errors.
GcuReport read_gcu_report(const std::string &path);

} // namespace prof::e2e
