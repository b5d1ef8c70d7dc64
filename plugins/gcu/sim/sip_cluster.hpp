// The six SIPs of one cluster: a worker thread each, started on the
// cluster's first kernel and parked on a condition variable between kernels.
// A kernel runs its body once on every SIP; one kernel at a time per cluster.
// The threads are never joined: the model lives until the process ends.
#ifndef PROF_GCUSIM_SIP_CLUSTER_HPP
#define PROF_GCUSIM_SIP_CLUSTER_HPP

#include "gcusim/gcu_runtime.h"
#include "topology.hpp"

#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace prof::gcusim {

/// How one SIP spent a kernel: host wall times and the CPU time its body used.
struct SipTiming {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t cpu_ns = 0;
};
using ClusterTiming = std::array<SipTiming, kSipsPerCluster>;

class SipCluster {
public:
  SipCluster() = default;
  SipCluster(const SipCluster &) = delete;
  SipCluster &operator=(const SipCluster &) = delete;

  /// Runs body(args, s, 6) on every SIP s and returns when all have finished.
  ClusterTiming run(gcuKernelFn body, void *args);

private:
  void sip_main(unsigned sip);

  std::mutex run_mutex_; // one kernel at a time
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  uint64_t generation_ = 0;
  unsigned remaining_ = 0;
  gcuKernelFn body_ = nullptr;
  void *args_ = nullptr;
  ClusterTiming timings_{};
  std::vector<std::thread> threads_;
};

} // namespace prof::gcusim

#endif
