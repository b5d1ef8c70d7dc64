// The in-process event path: a pool of per-thread rings in memory private to
// prof, for the system-scope sources that run inside it.
#pragma once

#include "core/events/event_source.hpp"
#include "core/runtime/ring_pool.hpp"

#include <prof/event.h>
#include <prof/plugin.h>

#include <array>
#include <cstdint>
#include <memory>

namespace prof::core {

struct EventBusConfig {
  uint64_t ring_bytes = 16ull << 20;      ///< per-thread ring (--host-ringbuffer-size)
  uint64_t watermark_bytes = 15ull << 20; ///< fill at which a ring is drained early
  uint32_t ring_count = 64;               ///< threads that can emit at once
};

/// Ring capacity (events) and watermark (events) for a configuration.
uint64_t ring_capacity_for(const EventBusConfig &config);
uint64_t watermark_events_for(const EventBusConfig &config);

class EventBus final : public EventSource {
public:
  /// Reserves the rings' memory (pages are committed as rings fill). Throws
  /// std::runtime_error when the memory cannot be mapped.
  explicit EventBus(const EventBusConfig &config);
  ~EventBus() override;
  EventBus(const EventBus &) = delete;
  EventBus &operator=(const EventBus &) = delete;

  /// Emits from the calling thread; see RingPool::emit.
  bool emit(const prof_event &event) { return pool_->emit(event); }
  /// Emits an event with its arguments records; see RingPool::emit_group.
  bool emit_group(const prof_event *records, uint32_t count) {
    return pool_->emit_group(records, count);
  }
  size_t drain(const std::function<void(prof_event *, size_t)> &consume, bool all) override {
    return pool_->drain(consume, all);
  }
  /// Events dropped because a ring was full (invalid ones are counted apart).
  uint64_t dropped() const override { return pool_->dropped(); }
  std::vector<RingDrops> drops() const override;
  /// Counts events or records lost before a ring, under `cause`: an event a
  /// source emitted on what it never declared, records a device buffer or
  /// the kernel lost. drops() lists each cause under its report::cause_ring.
  void count_lost(prof_drop_cause cause, uint64_t count) {
    if (cause > PROF_DROP_RING_FULL && cause < PROF_DROP_CAUSE_COUNT)
      lost_[cause].fetch_add(count, std::memory_order_relaxed);
  }
  uint64_t lost(prof_drop_cause cause) const {
    return cause < PROF_DROP_CAUSE_COUNT ? lost_[cause].load(std::memory_order_relaxed) : 0;
  }
  uint64_t dropped_without_ring() const { return pool_->dropped_without_ring(); }
  uint32_t ring_count() const { return pool_->ring_count(); }
  uint64_t ring_capacity() const { return pool_->ring_capacity(); }

private:
  void *memory_ = nullptr;
  size_t memory_bytes_ = 0;
  std::unique_ptr<RingSlot[]> slots_;
  std::atomic<uint64_t> no_ring_drops_{0};
  std::array<std::atomic<uint64_t>, PROF_DROP_CAUSE_COUNT> lost_{};
  std::unique_ptr<RingPool> pool_;
};

} // namespace prof::core
