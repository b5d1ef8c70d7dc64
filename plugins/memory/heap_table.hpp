// Every live heap block of the process, by address: its size and the code
// address that allocated it (the caller of malloc or operator new), with the
// heap's exact totals. Its memory comes straight from the kernel (mmap by
// system call), so it never calls the allocator it accounts for, and its
// locks are spin locks: it may be entered from inside malloc on any thread.
#ifndef PROF_PLUGINS_MEMORY_HEAP_TABLE_HPP
#define PROF_PLUGINS_MEMORY_HEAP_TABLE_HPP

#include "peak_ledger.hpp"

#include <prof/spin_lock.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace prof::memory {

using prof::SpinLock;

struct Block {
  uintptr_t address = 0; ///< 0: an empty slot; kErased: a slot freed since
  uint64_t size = 0;
  uintptr_t site = 0;
  uint32_t stack = 0; ///< its sampled call stack (stack_sampler.hpp), 0 for none
};

/// Allocation counts by size: class k holds sizes up to 2^(k+4) bytes (16 B,
/// 32 B, ... 1 TiB and beyond in the last).
inline constexpr int kSizeClasses = 37;
inline int size_class(uint64_t size) {
  int k = 0;
  while (k + 1 < kSizeClasses && size > (uint64_t{16} << k))
    ++k;
  return k;
}

/// One allocation or free as the event log keeps it (--memory-profile events).
struct HeapEvent {
  uint64_t ts = 0; ///< the log's clock, read under the shard's lock
  uintptr_t address = 0;
  uint64_t size = 0;
  int32_t tid = 0;
  bool free = false;
};

/// What the table has seen, exact.
struct HeapTotals {
  uint64_t allocations = 0, frees = 0, bytes_allocated = 0;
  int64_t in_use = 0;         ///< bytes in live blocks
  uint64_t peak = 0;          ///< the most bytes in use at once
  uint64_t peak_ns = 0;       ///< when (the clock given to add())
  uint64_t unknown_frees = 0; ///< frees of blocks allocated before the table saw them
  uint64_t temporaries = 0;   ///< blocks freed with no other allocation of their thread between
  std::array<uint64_t, kSizeClasses> by_class{};
};

class HeapTable {
public:
  HeapTable() = default;
  HeapTable(const HeapTable &) = delete;
  HeapTable &operator=(const HeapTable &) = delete;

  /// A block was allocated (address non-zero); `now_ns` is read only when it
  /// makes a new peak.
  /// False when the table has no room (the kernel refused memory).
  /// `tid`: the allocating thread, for the event log.
  bool add(const Block &block, uint64_t (*now_ns)(), int tid = 0) noexcept;
  /// A block is freed: its record, or false when the table never saw it.
  /// `temporary`: no other allocation of its thread came between.
  bool remove(uintptr_t address, Block *removed, bool temporary = false, int tid = 0) noexcept;
  /// From now on every add and every remove of a known block is also
  /// logged, with its thread and the time `now_ns` gives, up to `capacity`
  /// events between two take_events(). False when the kernel refused the
  /// memory (nothing is logged then).
  bool start_events(size_t capacity, uint64_t (*now_ns)()) noexcept;
  bool logs_events() const noexcept { return log_clock_.load(std::memory_order_relaxed); }
  /// Appends the events logged since the last call to `out`, in time order;
  /// returns how many found the log full since. One caller at a time.
  uint64_t take_events(std::vector<HeapEvent> &out);
  /// A live block overlapping [begin, end), found by a scan of every shard
  /// (for the few blocks of a table of mappings); false when none does.
  bool find_overlapping(uintptr_t begin, uintptr_t end, Block *found) const noexcept;
  /// Every live block, a shard locked at a time.
  void for_each(const std::function<void(const Block &)> &visit) const;
  HeapTotals totals() const noexcept;
  /// The bytes in use by call site and sampled stack, now and at the peak.
  const PeakLedger &ledger() const noexcept { return ledger_; }
  /// Sampled blocks stand for their weight at this period (set before the
  /// first sampled block).
  void set_stack_period(uint64_t period) noexcept { ledger_.set_stack_period(period); }
  /// Around fork(): every shard locked before, so the child's copy is whole;
  /// unlocked after, in the parent and in the child.
  void lock_all() noexcept;
  void unlock_all() noexcept;
  /// In a forked child: the parent's blocks are the parent's to report;
  /// the child starts empty (frees of them count as unseen). Locks held.
  void forget_all() noexcept;

  static constexpr uintptr_t kErased = 1;

private:
  // The counts live in the shards, under their locks: threads allocating
  // at once share no counter but the bytes in use.
  struct alignas(64) Shard {
    mutable SpinLock lock;
    Block *slots = nullptr;
    size_t capacity = 0; ///< a power of two, or 0
    size_t used = 0;     ///< live and erased slots
    size_t live = 0;
    uint64_t allocations = 0, frees = 0, bytes_allocated = 0, unknown_frees = 0, temporaries = 0;
    std::array<uint64_t, kSizeClasses> by_class{};
  };
  static constexpr int kShards = 64;
  static uint64_t hash(uintptr_t address) noexcept {
    return (address >> 4) * 0x9E3779B97F4A7C15ull;
  }
  /// The first slot to probe; the top bits of the hash pick the shard.
  static size_t slot_of(uintptr_t address, size_t capacity) noexcept {
    return (hash(address) >> 6) & (capacity - 1);
  }
  static bool grow(Shard &shard) noexcept;
  void log_event(const HeapEvent &event) noexcept;

  std::array<Shard, kShards> shards_{};
  PeakLedger ledger_; ///< taken inside a shard's lock, so a block's add and free keep their order
  // The event log: one for all shards (a block freed and made again at one
  // address would fill a shard's own), written under the writer's shard
  // lock, so that take_events() holding every lock finds no write under way.
  std::atomic<uint64_t (*)()> log_clock_{nullptr};
  HeapEvent *log_ = nullptr, *taken_log_ = nullptr;
  size_t log_capacity_ = 0;
  std::atomic<size_t> logged_{0};
  std::atomic<uint64_t> log_full_{0};
};

} // namespace prof::memory

#endif
