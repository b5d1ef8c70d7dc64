#include "topology.hpp"

#include <prof/event.h>

#include <string_view>

namespace prof::gcusim {
namespace {

const char *const kDmaActivities[] = {"DMA VC Execution", "DMA Busy"};
const char *const kCqmActivities[] = {"CQM Step Debug Packet",  "CQM Op Debug Packet",
                                      "CQM Command Packet",     "CQM Loop Task",
                                      "CQM Executable Execute", "CQM Sleep"};
const char *const kSipActivities[] = {"SIP Busy"};
const char *const kSipPmcEvents[] = {"sip_busy_without_wait", "sip_busy_with_wait",
                                     "sip_instructions", "sip_stall_cycles"};
const char *const kGeneralActivities[] = {"Task Pipeline", "Launch Kernel", "Operator", "Memory"};
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

constexpr const char *kRuntimeFunctions[] = {"gcuInit",
                                             "gcuGetDeviceCount",
                                             "gcuSetDevice",
                                             "gcuGetDevice",
                                             "gcuMalloc",
                                             "gcuFree",
                                             "gcuMemcpyH2D",
                                             "gcuMemcpyD2H",
                                             "gcuMemcpyD2D",
                                             "gcuMemcpyH2DAsync",
                                             "gcuMemcpyD2HAsync",
                                             "gcuMemcpyD2DAsync",
                                             "gcuMemset",
                                             "gcuMemsetAsync",
                                             "gcuLaunchKernel",
                                             "gcuStreamCreate",
                                             "gcuStreamDestroy",
                                             "gcuStreamSynchronize",
                                             "gcuStreamWaitEvent",
                                             "gcuEventCreate",
                                             "gcuEventDestroy",
                                             "gcuEventRecord",
                                             "gcuEventSynchronize",
                                             "gcuEventElapsedTime",
                                             "gcuDeviceSynchronize",
                                             "gcuProfilerStart",
                                             "gcuProfilerStop",
                                             "gcuMallocHost",
                                             "gcuFreeHost",
                                             "gcuLaunchCollectiveKernel"};
static_assert(sizeof(kRuntimeFunctions) / sizeof(kRuntimeFunctions[0]) == kApiFunctionCount);

template <class T, size_t N> constexpr uint32_t count_of(const T (&)[N]) { return N; }

const prof_gcu_group_desc kGroups[] = {{"Cluster", kClusterCount},
                                       {"ClusterLite", kClusterLiteCount}};

const prof_gcu_engine_desc kEngines[] = {
    {"CDMA", kCluster, kCdmaPerCluster, kDmaActivities, count_of(kDmaActivities), nullptr, 0},
    {"CQM", kCluster, 1, kCqmActivities, count_of(kCqmActivities), nullptr, 0},
    {"SDMA", kCluster, kSdmaPerCluster, kDmaActivities, count_of(kDmaActivities), nullptr, 0},
    {"SIP", kCluster, kSipsPerCluster, kSipActivities, count_of(kSipActivities), nullptr, 0},
    {"SIPPMC", kCluster, kSipsPerCluster, nullptr, 0, kSipPmcEvents, count_of(kSipPmcEvents)},
    {"CDMA_LITE", kClusterLite, 2, kDmaActivities, count_of(kDmaActivities), nullptr, 0},
    {"SDMA_LITE", kClusterLite, 1, kDmaActivities, count_of(kDmaActivities), nullptr, 0},
    {"SIP_LITE", kClusterLite, 1, kSipActivities, count_of(kSipActivities), nullptr, 0},
    {"General", kDeviceLevel, 1, kGeneralActivities, count_of(kGeneralActivities), nullptr, 0},
    {"TS", kDeviceLevel, 1, kTsActivities, count_of(kTsActivities), nullptr, 0},
};
static_assert(sizeof(kEngines) / sizeof(kEngines[0]) == kEngineCount);

const prof_gcu_api_domain kApiDomains[] = {
    {"RUNTIME", kRuntimeFunctions, count_of(kRuntimeFunctions)}};

} // namespace

// What the activities are. A copy's direction and a memset come from the
// record's label ("Memcpy HtoD"); the SIP_LITE engine runs only memsets, so
// its "SIP Busy" is the whole memset, where a cluster SIP's is a share of a kernel.
// General's "Memory" records allocations and frees (memory records, driver 1.2).
constexpr uint16_t kEnds = PROF_GCU_ACTIVITY_ENDS_FLOW;
const prof_gcu_activity_desc kActivityDescs[] = {
    {kGeneral, kOperator, PROF_CATEGORY_KERNEL, kEnds},
    {kGeneral, kMemory, PROF_CATEGORY_MEMORY, 0},
    {kCdma, kDmaVcExecution, PROF_CATEGORY_MEMCPY, kEnds},
    {kSdma, kDmaVcExecution, PROF_CATEGORY_MEMCPY, kEnds},
    {kCdmaLite, kDmaVcExecution, PROF_CATEGORY_MEMCPY, kEnds},
    {kSdmaLite, kDmaVcExecution, PROF_CATEGORY_MEMCPY, kEnds},
    {kCdma, kDmaBusy, PROF_CATEGORY_OTHER, 0},
    {kSdma, kDmaBusy, PROF_CATEGORY_OTHER, 0},
    {kCdmaLite, kDmaBusy, PROF_CATEGORY_OTHER, 0},
    {kSdmaLite, kDmaBusy, PROF_CATEGORY_OTHER, 0},
    {kSipLite, kSipBusy, PROF_CATEGORY_MEMSET, kEnds},
    {kTs, kTsRecordStream, PROF_CATEGORY_SYNC, kEnds},
    {kTs, kTsWaitStream, PROF_CATEGORY_SYNC, kEnds},
    {kTs, kTsMemoryWait, PROF_CATEGORY_SYNC, kEnds},
};

/// The index of runtime function `name` (a compile-time check that it is one).
constexpr uint32_t runtime_function(std::string_view name) {
  for (uint32_t i = 0; i < kApiFunctionCount; ++i)
    if (name == kRuntimeFunctions[i]) return i;
  throw "not a runtime function";
}

// The calls that wait for the device (driver 1.3); the others are
// runtime-API calls.
constexpr prof_gcu_api_desc kApiDescs[] = {
    {0, runtime_function("gcuStreamSynchronize"), PROF_CATEGORY_SYNC, 0},
    {0, runtime_function("gcuEventSynchronize"), PROF_CATEGORY_SYNC, 0},
    {0, runtime_function("gcuDeviceSynchronize"), PROF_CATEGORY_SYNC, 0},
};

const prof_gcu_topology &build_topology(uint32_t device_count) {
  static const prof_gcu_topology topology = {sizeof(prof_gcu_topology),
                                             device_count,
                                             kGroups,
                                             2,
                                             kEngines,
                                             kEngineCount,
                                             kApiDomains,
                                             1,
                                             kActivityDescs,
                                             count_of(kActivityDescs),
                                             kApiDescs,
                                             count_of(kApiDescs)};
  return topology;
}

} // namespace prof::gcusim
