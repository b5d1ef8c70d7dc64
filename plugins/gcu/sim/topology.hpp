// The simulated device tree, as topsprof's --query-activities shows an
// Enflame GCU: four Clusters and two ClusterLites per device, plus the
// device's own General and TS engines. The constants name indices into it.
#ifndef PROF_GCUSIM_TOPOLOGY_HPP
#define PROF_GCUSIM_TOPOLOGY_HPP

#include <prof/gcu_driver.h>

#include <cstdint>

namespace prof::gcusim {

enum Group : int16_t { kDeviceLevel = -1, kCluster = 0, kClusterLite = 1 };
inline constexpr uint32_t kClusterCount = 4;
inline constexpr uint32_t kClusterLiteCount = 2;
inline constexpr uint32_t kSipsPerCluster = 6;
inline constexpr uint32_t kCdmaPerCluster = 4;
inline constexpr uint32_t kSdmaPerCluster = 6;

/// Indices into prof_gcu_topology::engines.
enum Engine : uint16_t {
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

/// The group that holds `engine`.
constexpr Group engine_group(Engine engine) {
  if (engine == kGeneral || engine == kTs) return kDeviceLevel;
  return engine >= kCdmaLite ? kClusterLite : kCluster;
}

/// Activities of the DMA engines (CDMA, SDMA and their Lite kinds).
enum DmaActivity : uint32_t { kDmaVcExecution, kDmaBusy };
/// Activities of CQM.
enum CqmActivity : uint32_t { kCqmExecutableExecute = 4 };
/// Activities of SIP and SIP_LITE.
enum SipActivity : uint32_t { kSipBusy };
/// Events of SIPPMC, in topology order.
enum SipEvent : uint32_t {
  kSipBusyWithoutWait,
  kSipBusyWithWait,
  kSipInstructions,
  kSipStallCycles,
  kSipEventCount
};
/// Activities of General.
enum GeneralActivity : uint32_t { kTaskPipeline, kLaunchKernel, kOperator, kMemory };
/// Activities of TS used by the model.
enum TsActivity : uint32_t {
  kTsRecordStream = 0,
  kTsWaitStream = 1,
  kTsMemoryWait = 7,
  kTsCommandPacket = 14
};

/// Functions of the "RUNTIME" API domain, in gcu_runtime.h order.
enum ApiFunction : uint32_t {
  kGcuInit,
  kGcuGetDeviceCount,
  kGcuSetDevice,
  kGcuGetDevice,
  kGcuMalloc,
  kGcuFree,
  kGcuMemcpyH2D,
  kGcuMemcpyD2H,
  kGcuMemcpyD2D,
  kGcuMemcpyH2DAsync,
  kGcuMemcpyD2HAsync,
  kGcuMemcpyD2DAsync,
  kGcuMemset,
  kGcuMemsetAsync,
  kGcuLaunchKernel,
  kGcuStreamCreate,
  kGcuStreamDestroy,
  kGcuStreamSynchronize,
  kGcuStreamWaitEvent,
  kGcuEventCreate,
  kGcuEventDestroy,
  kGcuEventRecord,
  kGcuEventSynchronize,
  kGcuEventElapsedTime,
  kGcuDeviceSynchronize,
  kGcuProfilerStart,
  kGcuProfilerStop,
  kGcuMallocHost, // added last, so the indices of the others stay
  kGcuFreeHost,
  kGcuLaunchCollectiveKernel,
  kApiFunctionCount
};
inline constexpr uint32_t kRuntimeDomain = 0;

/// The topology for `device_count` devices; static storage, built once.
const prof_gcu_topology &build_topology(uint32_t device_count);

} // namespace prof::gcusim

#endif
