#include "sip_cluster.hpp"

#include "host_clock.hpp"

namespace prof::gcusim {

ClusterTiming SipCluster::run(gcuKernelFn body, void *args) {
  std::lock_guard run_lock(run_mutex_);
  std::unique_lock lock(mutex_);
  if (threads_.empty()) {
    for (unsigned sip = 0; sip < kSipsPerCluster; ++sip)
      threads_.emplace_back([this, sip] { sip_main(sip); });
  }
  body_ = body;
  args_ = args;
  remaining_ = kSipsPerCluster;
  ++generation_;
  work_ready_.notify_all();
  work_done_.wait(lock, [&] { return remaining_ == 0; });
  return timings_;
}

void SipCluster::sip_main(unsigned sip) {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return generation_ != seen; });
    seen = generation_;
    gcuKernelFn body = body_;
    void *args = args_;
    lock.unlock();

    // The wall-clock reads sit right around the body (the CPU-time reads, a
    // system call each, outside them), so a preemption between clock and
    // body, likely with six SIP threads on few cores, is rare.
    SipTiming timing;
    const uint64_t cpu_before = thread_cpu_ns();
    timing.start_ns = host_now_ns();
    body(args, sip, kSipsPerCluster);
    timing.end_ns = host_now_ns();
    timing.cpu_ns = thread_cpu_ns() - cpu_before;

    lock.lock();
    timings_[sip] = timing;
    if (--remaining_ == 0) work_done_.notify_one();
  }
}

} // namespace prof::gcusim
