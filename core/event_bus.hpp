// The in-process event path: a pool of per-thread single-producer rings.
// A thread claims a ring on its first emit and keeps it until it exits; the
// drain thread visits the rings periodically (never spinning on them) and
// empties those past the watermark, or all of them when asked.
#pragma once

#include "core/ring_buffer.hpp"

#include <prof/event.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace prof::core {

struct EventBusConfig {
  uint64_t ring_bytes = 16ull << 20;      ///< per-thread ring (--host-ringbuffer-size)
  uint64_t watermark_bytes = 15ull << 20; ///< fill at which a ring is drained early
  uint32_t ring_count = 64;               ///< threads that can emit at once
};

/// Drops of one ring, as the report states them.
struct RingDrops {
  uint32_t ring = 0;
  int32_t tid = 0;
  uint64_t dropped = 0;
};

class EventBus {
public:
  /// Reserves the rings' memory (pages are committed as rings fill). Throws
  /// std::runtime_error when the memory cannot be mapped.
  explicit EventBus(const EventBusConfig &config);
  ~EventBus();
  EventBus(const EventBus &) = delete;
  EventBus &operator=(const EventBus &) = delete;

  /// Emits from the calling thread: a few stores, never blocks, allocates or
  /// locks once the thread holds a ring. Returns false when dropped.
  bool emit(const prof_event &event) {
    ThreadSlot &slot = thread_slot_;
    if (slot.bus_id == id_) [[likely]]
      return slot.ring.push(event);
    return emit_slow(event);
  }

  /// Visits every ring in use and hands its events to `consume` in batches.
  /// With `all` false only rings past the watermark are emptied. Returns the
  /// number of events handed over. Call from one thread at a time.
  size_t drain(const std::function<void(prof_event *, size_t)> &consume, bool all);

  /// Events dropped so far, all rings together (including threads that found
  /// no free ring).
  uint64_t dropped() const;
  /// Drops per ring (only rings that dropped something).
  std::vector<RingDrops> drops() const;
  /// Events emitted by threads that found every ring taken.
  uint64_t dropped_without_ring() const { return no_ring_drops_.load(std::memory_order_relaxed); }
  uint32_t ring_count() const { return ring_count_; }
  uint64_t ring_capacity() const { return capacity_; }
  uint64_t id() const { return id_; }

private:
  /// What an emitting thread remembers: trivially destructible so reading it
  /// costs no guard.
  struct ThreadSlot {
    uint64_t bus_id = 0;
    RingBuffer ring;
    uint32_t index = 0;
  };
  static thread_local ThreadSlot thread_slot_;

  bool emit_slow(const prof_event &event);
  void release_ring(uint32_t index);
  friend struct ThreadExitHook;

  enum : uint32_t { kFree = 0, kOwned = 1, kReleased = 2 };

  uint64_t id_;
  uint32_t ring_count_;
  uint64_t capacity_;
  uint64_t watermark_events_;
  size_t stride_;
  void *memory_ = nullptr;
  size_t memory_bytes_ = 0;
  std::unique_ptr<std::atomic<uint32_t>[]> states_;
  std::vector<RingBuffer> rings_;
  std::vector<RingDrops> retired_drops_; // drops of rings whose thread exited
  mutable std::mutex retired_mutex_;
  std::atomic<uint64_t> no_ring_drops_{0};
  std::vector<prof_event> batch_;
};

} // namespace prof::core
