#include "core/event_bus.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace prof::core {

namespace {
std::atomic<uint64_t> next_bus_id{1};
// Id of the bus alive now (0 when none): a thread that exits after its bus
// is gone must not touch the bus.
std::atomic<uint64_t> live_bus_id{0};
std::atomic<EventBus *> live_bus{nullptr};
constexpr size_t kBatch = 4096;
} // namespace

thread_local EventBus::ThreadSlot EventBus::thread_slot_;

/// Releases the thread's ring when the thread exits, so pools of short-lived
/// threads do not use up the rings.
struct ThreadExitHook {
  ~ThreadExitHook() {
    const auto &slot = EventBus::thread_slot_;
    if (slot.bus_id == 0 || slot.bus_id != live_bus_id.load(std::memory_order_acquire)) return;
    if (EventBus *bus = live_bus.load(std::memory_order_acquire)) bus->release_ring(slot.index);
  }
};

EventBus::EventBus(const EventBusConfig &config)
    : id_(next_bus_id.fetch_add(1)), ring_count_(config.ring_count ? config.ring_count : 1),
      capacity_(RingBuffer::capacity_for(config.ring_bytes / sizeof(prof_event))) {
  watermark_events_ = config.watermark_bytes / sizeof(prof_event);
  if (watermark_events_ == 0 || watermark_events_ > capacity_) watermark_events_ = capacity_ / 2;
  stride_ = (RingBuffer::bytes_for(capacity_) + 4095) & ~size_t{4095};
  memory_bytes_ = stride_ * ring_count_;
  memory_ = mmap(nullptr, memory_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory_ == MAP_FAILED)
    throw std::runtime_error("cannot reserve " + std::to_string(memory_bytes_ >> 20) +
                             " MiB for event rings");
  states_ = std::make_unique<std::atomic<uint32_t>[]>(ring_count_);
  rings_.reserve(ring_count_);
  for (uint32_t i = 0; i < ring_count_; ++i) {
    states_[i].store(kFree);
    rings_.push_back(RingBuffer::format(static_cast<char *>(memory_) + i * stride_, capacity_));
  }
  batch_.resize(kBatch);
  live_bus.store(this, std::memory_order_release);
  live_bus_id.store(id_, std::memory_order_release);
}

EventBus::~EventBus() {
  uint64_t expected = id_;
  if (live_bus_id.compare_exchange_strong(expected, 0)) live_bus.store(nullptr);
  munmap(memory_, memory_bytes_);
}

bool EventBus::emit_slow(const prof_event &event) {
  thread_local ThreadExitHook exit_hook; // registered once per thread
  (void)exit_hook;
  const auto tid = static_cast<int32_t>(syscall(SYS_gettid));
  for (uint32_t i = 0; i < ring_count_; ++i) {
    uint32_t expected = kFree;
    if (states_[i].compare_exchange_strong(expected, kOwned, std::memory_order_acq_rel)) {
      rings_[i].header()->owner_tid.store(tid, std::memory_order_relaxed);
      thread_slot_ = ThreadSlot{id_, rings_[i], i};
      return thread_slot_.ring.push(event);
    }
  }
  no_ring_drops_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

void EventBus::release_ring(uint32_t index) {
  if (index < ring_count_) states_[index].store(kReleased, std::memory_order_release);
}

size_t EventBus::drain(const std::function<void(prof_event *, size_t)> &consume, bool all) {
  size_t total = 0;
  for (uint32_t i = 0; i < ring_count_; ++i) {
    const uint32_t state = states_[i].load(std::memory_order_acquire);
    if (state == kFree) continue;
    RingBuffer &ring = rings_[i];
    if (!all && ring.size() < watermark_events_) continue;
    for (size_t n; (n = ring.pop(batch_.data(), batch_.size())) > 0;) {
      consume(batch_.data(), n);
      total += n;
    }
    if (state == kReleased) {
      // The owner exited: keep its drops, reset the ring and hand it out again.
      RingHeader *header = ring.header();
      if (uint64_t dropped = ring.dropped()) {
        std::lock_guard lock(retired_mutex_);
        retired_drops_.push_back({i, header->owner_tid.load(), dropped});
      }
      header->dropped.store(0);
      header->cached_tail = header->tail.load();
      states_[i].store(kFree, std::memory_order_release);
    }
  }
  return total;
}

uint64_t EventBus::dropped() const {
  uint64_t total = no_ring_drops_.load(std::memory_order_relaxed);
  for (const RingDrops &d : drops()) total += d.dropped;
  return total;
}

std::vector<RingDrops> EventBus::drops() const {
  std::vector<RingDrops> result;
  {
    std::lock_guard lock(retired_mutex_);
    result = retired_drops_;
  }
  for (uint32_t i = 0; i < ring_count_; ++i) {
    if (uint64_t dropped = rings_[i].dropped())
      result.push_back({i, rings_[i].header()->owner_tid.load(), dropped});
  }
  return result;
}

} // namespace prof::core
