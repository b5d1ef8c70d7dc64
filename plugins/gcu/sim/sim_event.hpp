// An event: each record of it is a generation that completes when its stream
// reaches it. Waits target the generation current when they were queued.
#ifndef PROF_GCUSIM_SIM_EVENT_HPP
#define PROF_GCUSIM_SIM_EVENT_HPP

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace prof::gcusim {

class SimEvent {
public:
  /// A new generation, queued on stream `stream_id` of `device`.
  uint64_t add_record(uint32_t device, uint32_t stream_id);
  /// Marks generation `generation` complete at host time `host_ns`.
  void complete(uint64_t generation, uint64_t host_ns);
  /// The latest generation queued (0: never recorded).
  uint64_t latest();
  /// Blocks until `generation` has completed.
  void wait(uint64_t generation);

  struct State {
    uint64_t recorded = 0;
    uint64_t completed = 0;
    uint64_t completed_ns = 0;
    uint32_t device = 0;
    uint32_t stream_id = 0;
  };
  State state();

private:
  std::mutex mutex_;
  std::condition_variable completed_;
  State state_;
};

} // namespace prof::gcusim

#endif
