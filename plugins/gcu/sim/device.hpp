// One simulated GCU: its clock, its four clusters of SIPs, its DMA engines,
// and the records its work produces. Work runs on the calling thread (a
// stream's worker); kernels are handed to a cluster's SIP threads.
#ifndef PROF_GCUSIM_DEVICE_HPP
#define PROF_GCUSIM_DEVICE_HPP

#include "capture_registry.hpp"
#include "device_clock.hpp"
#include "device_memory.hpp"
#include "label_table.hpp"
#include "sip_cluster.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>

namespace prof::gcusim {

/// What queued a piece of work; its records carry it.
struct WorkOrigin {
  uint32_t stream = 0;
  uint64_t correlation_id = 0;
  uint64_t op_id = 0;
};

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

class Device {
public:
  Device(uint32_t index, const DeviceClock &clock, CaptureRegistry &captures, LabelTable &labels,
         double dma_gbps);
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  uint32_t index() const noexcept { return index_; }
  const DeviceClock &clock() const noexcept { return clock_; }

  /// Runs a kernel on the next cluster (round-robin) and returns when it has finished.
  void run_kernel(gcuKernelFn body, void *args, uint32_t name_label, const WorkOrigin &origin);
  /// Copies on an SDMA (to or from the host) or CDMA engine at the modelled bandwidth.
  void run_copy(void *dst, const void *src, size_t bytes, CopyKind kind, const WorkOrigin &origin);
  /// Fills memory on the SIP_LITE of ClusterLite 0 at the modelled bandwidth.
  void run_memset(void *dst, int value, size_t bytes, const WorkOrigin &origin);
  /// Records a TS activity over host times [start_ns, end_ns].
  void record_ts(TsActivity activity, uint64_t start_ns, uint64_t end_ns, const WorkOrigin &origin);
  /// Records an allocation or free made now by the API call `correlation_id`
  /// (General's "Memory" activity); whether a capture took the record.
  bool record_memory(const BlockChange &change, uint64_t correlation_id);
  /// Busy ticks summed over the SIPs of a group instance, or of the device for group -1.
  int busy_ticks(int32_t group, uint32_t group_index, uint64_t &busy, uint32_t &units) const;

private:
  /// Where a record comes from: an engine instance.
  struct EngineInstance {
    Engine engine;
    uint32_t group_index;
    uint32_t engine_index;
  };
  void emit_activity(EngineInstance where, uint32_t activity, uint64_t start_ns, uint64_t end_ns,
                     uint32_t label, uint64_t bytes, const WorkOrigin &origin);
  void emit_counter(EngineInstance where, uint32_t event, uint64_t start_ticks, uint64_t end_ticks,
                    uint64_t value, const WorkOrigin &origin);
  void emit_kernel_records(uint32_t cluster, const ClusterTiming &sips, uint64_t dequeued_ns,
                           uint64_t dispatched_ns, uint64_t done_ns, uint32_t name_label,
                           const WorkOrigin &origin);
  /// Sleeps until `bytes` at the modelled bandwidth have had time to move since `start_ns`.
  void wait_for_bandwidth(uint64_t start_ns, size_t bytes) const;

  const uint32_t index_;
  const DeviceClock clock_;
  CaptureRegistry &captures_;
  const double dma_bytes_per_ns_;
  const uint32_t label_h2d_, label_d2h_, label_d2d_, label_memset_;

  std::array<SipCluster, kClusterCount> clusters_;
  std::array<std::array<std::atomic<uint64_t>, kSipsPerCluster>, kClusterCount> sip_busy_{};
  std::array<std::atomic<uint64_t>, kClusterLiteCount> sip_lite_busy_{};
  // One transfer at a time per engine instance.
  std::array<std::mutex, kClusterCount * kSdmaPerCluster> sdma_;
  std::array<std::mutex, kClusterCount * kCdmaPerCluster> cdma_;
  std::mutex sip_lite_;
  std::atomic<uint32_t> next_cluster_{0};
  std::atomic<uint32_t> next_sdma_{0};
  std::atomic<uint32_t> next_cdma_{0};
};

} // namespace prof::gcusim

#endif
