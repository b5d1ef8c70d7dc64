// The GCU device tree the tests use; gcusim (plugins/gcu/sim) provides the same.
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <cstdint>
#include <string>
#include <vector>

namespace prof::activity::testing {

/// Group indexes and engine indexes of the test tree.
enum Group : int32_t { kCluster = 0, kClusterLite = 1 };
enum Engine : uint32_t {
  kCdma,
  kCqm,
  kSdma,
  kSip,
  kSipPmc,
  kCdmaLite,
  kSdmaLite,
  kSipLite,
  kGeneral,
  kTs,
  kEngineCount
};

/// Two devices; Cluster×4 (CDMA×4, CQM×1, SDMA×6, SIP×6, SIPPMC×6) and
/// ClusterLite×2 (CDMA_LITE×2, SDMA_LITE×1, SIP_LITE×1); General and TS in
/// the device; one API domain, RUNTIME.
const prof_gcu_topology &gcu_test_topology();

/// The RUNTIME functions, in order.
const std::vector<std::string> &runtime_functions();

/// One item per line, "Device0/Cluster1/SIP2/SIP Busy", for readable failures.
std::vector<std::string> describe(const Selection &selection, ItemKind kind);

} // namespace prof::activity::testing
