// A pool of single-producer rings in one block of memory, private to prof
// or shared with profiled processes. A thread claims a free ring on its first
// emit and gives it back when it exits (or its process dies); one consumer
// drains them all.
#pragma once

#include "core/runtime/ring_buffer.hpp"

#include <prof/event.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace prof::core {

/// Ownership of one ring; lives beside the rings (in shared memory for the agent).
struct RingSlot {
  std::atomic<uint32_t> state{0}; ///< RingPool::kFree, kOwned or kReleased
  std::atomic<int32_t> pid{0};    ///< owning process
  std::atomic<int32_t> tid{0};    ///< owning thread
};

/// A ring the drain found corrupt and abandoned: what it knew of it then.
struct CorruptRing {
  uint32_t ring = 0;
  int32_t pid = 0, tid = 0;
  uint64_t head = 0, tail = 0;
};

/// Drops of one ring owner, as the report states them.
struct RingDrops {
  uint32_t ring = 0;
  int32_t tid = 0;
  uint64_t dropped = 0;
};

class RingPool {
public:
  enum : uint32_t { kFree = 0, kOwned = 1, kReleased = 2 };
  /// How often a thread that finds no free ring grows the region before it
  /// drops its event: a ring published meanwhile may go to another thread.
  static constexpr int kGrowAttempts = 4;

  /// Rings at `rings` + i * `stride`, already formatted with `capacity` slots;
  /// `slots` has `count` entries; `no_ring_drops` counts emits that found no
  /// free ring. With `check_owners`, drain() frees the rings of processes that
  /// died without giving them back. With `ready`, a thread claims only rings
  /// below *ready (at most `count`): the others are not backed yet.
  RingPool(char *rings, size_t stride, RingSlot *slots, uint32_t count, uint64_t capacity,
           uint64_t watermark_events, std::atomic<uint64_t> *no_ring_drops, bool check_owners,
           const std::atomic<uint32_t> *ready = nullptr);
  ~RingPool();
  /// While `*unchecked` is set, drain() judges no owner gone (its pid may be
  /// another namespace's).
  void check_owners_unless(const std::atomic<uint32_t> *unchecked) {
    owners_unchecked_ = unchecked;
  }
  RingPool(const RingPool &) = delete;
  RingPool &operator=(const RingPool &) = delete;

  /// Emits from the calling thread: a few stores once the thread holds a
  /// ring; never blocks, allocates or locks. False when dropped.
  bool emit(const prof_event &event) {
    ThreadSlot &slot = thread_slot_;
    if (slot.pool_id == id_) [[likely]]
      return slot.ring.push(event);
    return emit_slow(event);
  }

  /// Emits one event with its arguments records (pack_event_args) from the
  /// calling thread, all or none.
  bool emit_group(const prof_event *records, uint32_t count) {
    ThreadSlot &slot = thread_slot_;
    if (slot.pool_id == id_) [[likely]]
      return slot.ring.push_group(records, count);
    return emit_group_slow(records, count);
  }

  /// Empties rings into `consume` in batches: those past the watermark, or
  /// all with `all`. One consumer at a time. Returns the events handed over.
  size_t drain(const std::function<void(prof_event *, size_t)> &consume, bool all);

  /// In a child after fork: the calling thread must claim a ring of its own.
  static void forget_thread_ring() { thread_slot_ = ThreadSlot{}; }
  /// In a child after fork, before anything emits: forgets the ring and
  /// frees the pools' list, which a thread exiting in the parent may have
  /// held when the process was copied.
  static void reset_in_forked_child() noexcept;

  uint64_t dropped() const;
  std::vector<RingDrops> drops() const;
  uint64_t dropped_without_ring() const { return no_ring_drops_->load(std::memory_order_relaxed); }
  /// Rings abandoned since the last call because their positions made no
  /// sense (an application wrote over them); their events are lost.
  std::vector<CorruptRing> take_corrupt_rings();
  uint32_t ring_count() const { return count_; }
  /// Called on an emitting thread that found every backed ring taken: may
  /// back one more (publishing it through `ready`) and return true. It must
  /// never wait: it may run in a signal handler, or where a lock is held.
  using GrowRings = bool (*)(void *context);
  void set_grow(GrowRings grow, void *context) {
    grow_ = grow;
    grow_context_ = context;
  }
  uint64_t ring_capacity() const { return capacity_; }

  /// Whether the consumer gives back the pages of what it read, and what
  /// that costs the rings' memory.
  enum class GiveBack {
    Never,
    /// Pages given back read as zeros: each producer leaves
    /// kGiveBackReserve slots free behind the consumer, and only rings
    /// written slower than kGiveBackCycle give back.
    PrivateMemory,
    /// Pages given back by prof's mapping keep their contents (shared
    /// memory): producers are not asked for anything, and every drain gives
    /// back what it read (a page read again costs prof a minor fault, never
    /// the producer).
    SharedMemory,
  };
  /// Slots a producer leaves free behind the consumer of a PrivateMemory pool.
  static constexpr uint64_t kGiveBackReserve = 256;
  /// What a read fault on shared memory maps around it at most (Linux's
  /// fault_around_bytes, 64 KiB by default): a SharedMemory pool gives back
  /// that much again behind its read position.
  static constexpr uint64_t kFaultAroundBytes = 64 << 10;
  /// A private ring written slower than it goes round in this time gives
  /// back what its full drains read; a faster one is all resident within it
  /// anyway, and giving its pages back would only make its producer fault
  /// them in again (zero-filled).
  static constexpr std::chrono::seconds kGiveBackCycle{2};
  /// Set before any thread emits. Rings smaller than four reserves never give back.
  void set_give_back(GiveBack mode);

private:
  /// What an emitting thread remembers: trivially destructible, so reading
  /// it costs no guard.
  struct ThreadSlot {
    uint64_t pool_id = 0;
    RingBuffer ring;
    uint32_t index = 0;
  };
  static thread_local ThreadSlot thread_slot_;
  friend struct RingExitHook;

  bool emit_slow(const prof_event &event);
  /// Whether a ring written `written` events since the last full drain
  /// `elapsed` ago goes round slower than kGiveBackCycle.
  bool slow_ring(uint64_t written, std::chrono::steady_clock::duration elapsed) const;
  bool emit_group_slow(const prof_event *records, uint32_t count);
  /// Gives the calling thread a free ring; false (counted) when none is.
  bool claim_ring();
  void release(uint32_t index);
  void retire(uint32_t index);
  /// Stops reading a ring whose positions make no sense, and remembers it.
  void abandon(uint32_t index);

  uint64_t id_;
  char *rings_;
  size_t stride_;
  RingSlot *slots_;
  uint32_t count_;
  uint64_t capacity_;
  uint64_t watermark_events_;
  std::atomic<uint64_t> *no_ring_drops_;
  bool check_owners_;
  // While set, no owner is judged gone.
  const std::atomic<uint32_t> *owners_unchecked_ = nullptr;
  const std::atomic<uint32_t> *ready_; // nullptr: every ring is backed
  GrowRings grow_ = nullptr;
  void *grow_context_ = nullptr;
  std::vector<RingDrops> retired_drops_; // owners that went away
  mutable std::mutex retired_mutex_;
  std::unique_ptr<prof_event[]> batch_; // not zeroed: pages are touched as events fill it
  std::vector<bool> abandoned_;         // rings never to be read again (consumer only)
  std::vector<CorruptRing> corrupt_;    // found since take_corrupt_rings()
  GiveBack give_back_ = GiveBack::Never;
  uint64_t producer_reserve_ = 0;
  std::vector<PageGiveBack> given_back_;     // per ring (consumer only)
  std::vector<uint64_t> head_at_full_drain_; // per ring (consumer only)
  std::chrono::steady_clock::time_point last_full_drain_;
};

} // namespace prof::core
