#include "tests/support/gcu_test_topology.hpp"

#include <prof/activity/device_tree.hpp>

namespace prof::activity::testing {
namespace {

const char *const kDma[] = {"DMA VC Execution", "DMA Busy"};
const char *const kCqmActivities[] = {"CQM Step Debug Packet",  "CQM Op Debug Packet",
                                      "CQM Command Packet",     "CQM Loop Task",
                                      "CQM Executable Execute", "CQM Sleep"};
const char *const kSipBusy[] = {"SIP Busy"};
const char *const kSipEvents[] = {"sip_busy_without_wait", "sip_busy_with_wait", "sip_instructions",
                                  "sip_stall_cycles"};
const char *const kGeneralActivities[] = {"Task Pipeline", "Launch Kernel", "Operator"};
const char *const kTsActivities[] = {"TS Record Stream",
                                     "TS Wait Stream",
                                     "TS VDEC Executable Launch",
                                     "TS HCVG Executable Launch",
                                     "TS CQM Executable Launch",
                                     "TS Parse EDMA",
                                     "TS VG Config",
                                     "TS Memory Wait",
                                     "TS Register Wait",
                                     "TS Memory Write",
                                     "TS Register Write",
                                     "TS ISR",
                                     "TS Parse GDMA",
                                     "TS Read Packet",
                                     "TS Command Packet"};
const char *const kRuntime[] = {"gcuInit",      "gcuMalloc",    "gcuFree",
                                "gcuMemcpyH2D", "gcuMemcpyD2H", "gcuLaunchKernel"};

const prof_gcu_group_desc kGroups[] = {{"Cluster", 4}, {"ClusterLite", 2}};

const prof_gcu_engine_desc kEngines[] = {
    {"CDMA", kCluster, 4, kDma, 2, nullptr, 0},
    {"CQM", kCluster, 1, kCqmActivities, 6, nullptr, 0},
    {"SDMA", kCluster, 6, kDma, 2, nullptr, 0},
    {"SIP", kCluster, 6, kSipBusy, 1, nullptr, 0},
    {"SIPPMC", kCluster, 6, nullptr, 0, kSipEvents, 4},
    {"CDMA_LITE", kClusterLite, 2, kDma, 2, nullptr, 0},
    {"SDMA_LITE", kClusterLite, 1, kDma, 2, nullptr, 0},
    {"SIP_LITE", kClusterLite, 1, kSipBusy, 1, nullptr, 0},
    {"General", -1, 1, kGeneralActivities, 3, nullptr, 0},
    {"TS", -1, 1, kTsActivities, 15, nullptr, 0},
};
static_assert(sizeof(kEngines) / sizeof(kEngines[0]) == kEngineCount);

const prof_gcu_api_domain kDomains[] = {{"RUNTIME", kRuntime, 6}};

const prof_gcu_topology kTopology = {
    sizeof(prof_gcu_topology), 2, kGroups, 2, kEngines, kEngineCount, kDomains, 1};

} // namespace

const prof_gcu_topology &gcu_test_topology() { return kTopology; }

const std::vector<std::string> &runtime_functions() {
  static const std::vector<std::string> names(std::begin(kRuntime), std::end(kRuntime));
  return names;
}

std::vector<std::string> describe(const Selection &selection, ItemKind kind) {
  const DeviceTree tree(kTopology);
  std::vector<std::string> lines;
  for (const prof_gcu_item &item : selection.items)
    lines.push_back(tree.describe(item, kind));
  for (const prof_gcu_api_item &api : selection.apis)
    lines.push_back(tree.describe(api));
  return lines;
}

} // namespace prof::activity::testing
