#include "sim_event.hpp"

namespace prof::gcusim {

uint64_t SimEvent::add_record(uint32_t device, uint32_t stream_id) {
  std::lock_guard lock(mutex_);
  state_.device = device;
  state_.stream_id = stream_id;
  return ++state_.recorded;
}

void SimEvent::complete(uint64_t generation, uint64_t host_ns) {
  std::lock_guard lock(mutex_);
  if (generation > state_.completed) {
    state_.completed = generation;
    state_.completed_ns = host_ns;
  }
  completed_.notify_all();
}

uint64_t SimEvent::latest() {
  std::lock_guard lock(mutex_);
  return state_.recorded;
}

void SimEvent::wait(uint64_t generation) {
  std::unique_lock lock(mutex_);
  completed_.wait(lock, [&] { return state_.completed >= generation; });
}

SimEvent::State SimEvent::state() {
  std::lock_guard lock(mutex_);
  return state_;
}

} // namespace prof::gcusim
