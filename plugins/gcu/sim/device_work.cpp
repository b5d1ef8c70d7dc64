// The device's work: kernels on a cluster's SIPs, copies on DMA engines,
// memsets on SIP_LITE, and the records each produces.
#include "device.hpp"

#include "host_clock.hpp"

#include <algorithm>
#include <cstring>

namespace prof::gcusim {

void Device::run_kernel(gcuKernelFn body, void *args, uint32_t name_label,
                        const WorkOrigin &origin) {
  uint64_t dequeued_ns = host_now_ns();
  uint32_t cluster = next_cluster_.fetch_add(1, std::memory_order_relaxed) % kClusterCount;
  uint64_t dispatched_ns = host_now_ns();
  ClusterTiming sips = clusters_[cluster].run(body, args);
  uint64_t done_ns = host_now_ns();
  for (uint32_t s = 0; s < kSipsPerCluster; ++s)
    sip_busy_[cluster][s].fetch_add(clock_.ticks_at(sips[s].end_ns) -
                                        clock_.ticks_at(sips[s].start_ns),
                                    std::memory_order_relaxed);
  emit_kernel_records(cluster, sips, dequeued_ns, dispatched_ns, done_ns, name_label, origin);
}

// Counters per SIP over the op's window: busy_with_wait runs from the op's
// start to this SIP's end; busy_without_wait is the CPU time the body used,
// at one tick per CPU clock tick; sip_instructions counts one instruction per
// busy tick; stall cycles are the difference.
void Device::emit_kernel_records(uint32_t cluster, const ClusterTiming &sips, uint64_t dequeued_ns,
                                 uint64_t dispatched_ns, uint64_t done_ns, uint32_t name_label,
                                 const WorkOrigin &origin) {
  if (!captures_.active()) return;
  uint64_t op_start_ns = sips[0].start_ns;
  uint64_t op_end_ns = sips[0].end_ns;
  for (const SipTiming &sip : sips) {
    op_start_ns = std::min(op_start_ns, sip.start_ns);
    op_end_ns = std::max(op_end_ns, sip.end_ns);
  }
  emit_activity({kTs, 0, 0}, kTsCommandPacket, dequeued_ns, dispatched_ns, name_label, 0, origin);
  emit_activity({kGeneral, 0, 0}, kLaunchKernel, dequeued_ns, op_start_ns, name_label, 0, origin);
  emit_activity({kGeneral, 0, 0}, kOperator, op_start_ns, op_end_ns, name_label, 0, origin);
  emit_activity({kCqm, cluster, 0}, kCqmExecutableExecute, op_start_ns, op_end_ns, name_label, 0,
                origin);
  uint64_t op_start = clock_.ticks_at(op_start_ns);
  uint64_t op_end = clock_.ticks_at(op_end_ns);
  for (uint32_t s = 0; s < kSipsPerCluster; ++s) {
    const SipTiming &sip = sips[s];
    emit_activity({kSip, cluster, s}, kSipBusy, sip.start_ns, sip.end_ns, 0, 0, origin);
    uint64_t with_wait = clock_.ticks_at(sip.end_ns) - op_start;
    uint64_t without_wait = std::min(clock_.ticks_in(sip.cpu_ns), with_wait);
    EngineInstance pmc{kSipPmc, cluster, s};
    emit_counter(pmc, kSipBusyWithoutWait, op_start, op_end, without_wait, origin);
    emit_counter(pmc, kSipBusyWithWait, op_start, op_end, with_wait, origin);
    emit_counter(pmc, kSipInstructions, op_start, op_end, without_wait, origin);
    emit_counter(pmc, kSipStallCycles, op_start, op_end, with_wait - without_wait, origin);
  }
  emit_activity({kGeneral, 0, 0}, kTaskPipeline, dequeued_ns, done_ns, name_label, 0, origin);
}

void Device::run_copy(void *dst, const void *src, size_t bytes, CopyKind kind,
                      const WorkOrigin &origin) {
  EngineInstance where{};
  std::mutex *engine = nullptr;
  uint32_t label = 0;
  if (kind == CopyKind::DeviceToDevice) {
    uint32_t n = next_cdma_.fetch_add(1, std::memory_order_relaxed) % cdma_.size();
    where = {kCdma, n / kCdmaPerCluster, n % kCdmaPerCluster};
    engine = &cdma_[n];
    label = label_d2d_;
  } else {
    uint32_t n = next_sdma_.fetch_add(1, std::memory_order_relaxed) % sdma_.size();
    where = {kSdma, n / kSdmaPerCluster, n % kSdmaPerCluster};
    engine = &sdma_[n];
    label = kind == CopyKind::HostToDevice ? label_h2d_ : label_d2h_;
  }
  std::lock_guard lock(*engine);
  uint64_t start_ns = host_now_ns();
  std::memmove(dst, src, bytes);
  wait_for_bandwidth(start_ns, bytes);
  uint64_t end_ns = host_now_ns();
  emit_activity(where, kDmaVcExecution, start_ns, end_ns, label, bytes, origin);
  emit_activity(where, kDmaBusy, start_ns, end_ns, label, bytes, origin);
}

void Device::run_memset(void *dst, int value, size_t bytes, const WorkOrigin &origin) {
  std::lock_guard lock(sip_lite_);
  uint64_t start_ns = host_now_ns();
  std::memset(dst, value, bytes);
  wait_for_bandwidth(start_ns, bytes);
  uint64_t end_ns = host_now_ns();
  sip_lite_busy_[0].fetch_add(clock_.ticks_at(end_ns) - clock_.ticks_at(start_ns),
                              std::memory_order_relaxed);
  // SIP_LITE records only "SIP Busy": the memset is that slice, labelled and sized.
  emit_activity({kSipLite, 0, 0}, kSipBusy, start_ns, end_ns, label_memset_, bytes, origin);
}

} // namespace prof::gcusim
