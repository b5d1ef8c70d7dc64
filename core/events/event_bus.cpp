#include "core/events/event_bus.hpp"

#include "core/report/report_model.hpp"

#include <sys/mman.h>

#include <stdexcept>
#include <string>

namespace prof::core {

uint64_t ring_capacity_for(const EventBusConfig &config) {
  return RingBuffer::capacity_for(config.ring_bytes / sizeof(prof_event));
}

uint64_t watermark_events_for(const EventBusConfig &config) {
  return config.watermark_bytes / sizeof(prof_event);
}

EventBus::EventBus(const EventBusConfig &config) {
  const uint32_t count = config.ring_count ? config.ring_count : 1;
  const uint64_t capacity = ring_capacity_for(config);
  const size_t stride = (RingBuffer::bytes_for(capacity) + 4095) & ~size_t{4095};
  memory_bytes_ = stride * count;
  memory_ = mmap(nullptr, memory_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory_ == MAP_FAILED)
    throw std::runtime_error("cannot reserve " + std::to_string(memory_bytes_ >> 20) +
                             " MiB for event rings");
  // Anonymous memory is zero: each ring already is an empty one, and the
  // pool attaches to it with its capacity. Formatting would fault in a page
  // per ring (64 by default, about 10 us each on a VM) for nothing.
  char *rings = static_cast<char *>(memory_);
  slots_ = std::make_unique<RingSlot[]>(count);
  pool_ = std::make_unique<RingPool>(rings, stride, slots_.get(), count, capacity,
                                     watermark_events_for(config), &no_ring_drops_, false);
  // A thread writing a thousand events a second takes minutes to go round a
  // ring of the default size; prof's memory would grow with it all that time.
  pool_->set_give_back(RingPool::GiveBack::PrivateMemory);
}

EventBus::~EventBus() {
  pool_.reset();
  munmap(memory_, memory_bytes_);
}

std::vector<RingDrops> EventBus::drops() const {
  std::vector<RingDrops> drops = pool_->drops();
  for (int cause = PROF_DROP_RING_FULL + 1; cause < PROF_DROP_CAUSE_COUNT; ++cause)
    if (const uint64_t count = lost(static_cast<prof_drop_cause>(cause)))
      drops.push_back({report::cause_ring(static_cast<prof_drop_cause>(cause)), 0, count});
  return drops;
}

} // namespace prof::core
