// The heap's bytes in use, its peak, and what each call site and each
// sampled stack held at that peak: exact whenever the peak happens, however
// briefly it lasted. The level (bytes in use, peak) changes by one atomic
// operation that orders every allocation and free; each row keeps its value
// now, its value at a peak, and the peak it last saw, so that a row whose
// last change came before the latest peak holds then what it holds now. No
// peak rebuilds anything: each change is O(1). Rows live in lanes: a thread
// claims one and alone writes its rows, so threads allocating at one call
// site at once share no lock and no row (threads past the lanes share one,
// under a lock). Memory straight from the kernel: it is entered from inside
// malloc on any thread.
#ifndef PROF_PLUGINS_MEMORY_PEAK_LEDGER_HPP
#define PROF_PLUGINS_MEMORY_PEAK_LEDGER_HPP

#include <prof/spin_lock.hpp>
#include <prof/thread_slots.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>

namespace prof::memory {

/// The site of prof's own blocks (allocated from prof's code, prof_code.hpp),
/// summed as one row, outside the heap's level and peak.
inline constexpr uintptr_t kProfSite = 1;

/// What a row holds: exact bytes and blocks, and for a stack the estimate
/// its sampled blocks stand for (stack_sampler.hpp).
struct LedgerValue {
  int64_t bytes = 0, blocks = 0;
  double weight = 0, variance = 0;

  LedgerValue &operator+=(const LedgerValue &other) noexcept {
    bytes += other.bytes;
    blocks += other.blocks;
    weight += other.weight;
    variance += other.variance;
    return *this;
  }
};

/// One row: a call site's address or a sampled stack's id, its value now,
/// and its value at the peak `seen` (the peak when it last changed).
struct LedgerRow {
  uintptr_t key = 0;
  bool filled = false;
  uint64_t seen = 0;
  LedgerValue live, at_seen_peak;

  /// Its value at the peak `peak` (the latest): what it holds now when it
  /// has not changed since that peak.
  const LedgerValue &at_peak(uint64_t peak) const noexcept {
    return seen < peak ? live : at_seen_peak;
  }
};

/// Rows by key, never erased (call sites and stacks are few), written by
/// one thread at a time. Readers on other threads may read while it writes:
/// the arrays it outgrew stay mapped until release(), so a reader never
/// follows a pointer into unmapped memory, and sees each row's latest or
/// next-to-latest value.
class LedgerTable {
public:
  LedgerTable() = default;
  LedgerTable(const LedgerTable &) = delete;
  LedgerTable &operator=(const LedgerTable &) = delete;
  ~LedgerTable() { release(); }

  /// Adds bytes, blocks, weight and variance to `key`'s row, a change made
  /// while the peak went from `before` to `after`; false when the kernel
  /// refused memory for a new row. (By value: a value built on the caller's
  /// stack and read back whole stalled each call.)
  bool change(uintptr_t key, int64_t bytes, int64_t blocks, double weight, double variance,
              uint64_t before, uint64_t after) noexcept;
  template <class Visit> void for_each(Visit visit) const {
    // The size first: an array published with it is at least that large.
    const size_t capacity = capacity_.load(std::memory_order_acquire);
    const LedgerRow *rows = rows_.load(std::memory_order_acquire);
    for (size_t i = 0; i < capacity; ++i)
      if (rows[i].filled) visit(rows[i]);
  }
  void release() noexcept;

private:
  LedgerRow *find(uintptr_t key) noexcept;
  bool grow() noexcept;

  std::atomic<LedgerRow *> rows_{nullptr};
  std::atomic<size_t> capacity_{0};
  size_t used_ = 0;
  size_t last_ = 0; ///< the row changed last: an allocation's free is often next
  static constexpr size_t kMaxArrays = 40;
  LedgerRow *outgrown_[kMaxArrays] = {};
  size_t outgrown_count_ = 0;
};

/// A thread's claim on a lane, the same index in every ledger.
struct LedgerLaneSlot {
  std::atomic<uint32_t> owned{0};
};
inline constexpr size_t kLedgerLanes = 256;
using LedgerLanes = ThreadSlots<LedgerLaneSlot, kLedgerLanes>;

class PeakLedger {
public:
  /// Lets threads claim lanes from now on (call from a plain context, once:
  /// the plugin's load); until then, and past kLedgerLanes threads, threads
  /// share one lane under a lock.
  static void use_thread_lanes() noexcept { LedgerLanes::prepare(); }

  /// Sampled blocks stand for their weight at this sampling period.
  void set_stack_period(uint64_t period) noexcept { period_.store(period); }
  /// A block of `size` bytes allocated at `site` (its sampled stack `stack`,
  /// 0 for none); `now_ns` is read when it makes a new peak. A block of
  /// kProfSite moves its row only, never the level.
  void add(uint64_t size, uintptr_t site, uint32_t stack, uint64_t (*now_ns)()) noexcept;
  /// The same block freed.
  void remove(uint64_t size, uintptr_t site, uint32_t stack) noexcept;

  int64_t in_use() const noexcept;
  uint64_t peak() const noexcept;
  uint64_t peak_ns() const noexcept { return peak_ns_.load(std::memory_order_relaxed); }
  /// Each row as visit(site or stack, value now, value at the peak); a key
  /// comes in one row per lane that changed it, to be summed. Threads still
  /// allocating meanwhile may or may not be seen in it. `visit` must not
  /// allocate through the accounted heap.
  template <class Visit> void for_each_site(Visit visit) const { visit_rows(&Lane::sites, visit); }
  template <class Visit> void for_each_stack(Visit visit) const {
    visit_rows(&Lane::stacks, visit);
  }

  /// Around fork(), as HeapTable's shards.
  void lock() noexcept;
  void unlock() noexcept;
  /// In a forked child: empty, as the child's heap table, and every lane
  /// but the calling thread's free. Locks held.
  void forget_all() noexcept;

private:
  struct Lane {
    LedgerTable sites, stacks;
  };
  /// Bytes in use and the peak, changed together (one 16-byte compare and
  /// swap where the machine has one, else under a lock).
  struct alignas(16) Level {
    int64_t in_use = 0;
    uint64_t peak = 0;
  };

  void change(int64_t bytes, int64_t blocks, uintptr_t site, uint32_t stack,
              uint64_t (*now_ns)()) noexcept;
  void change_lane(Lane &lane, int64_t bytes, int64_t blocks, uintptr_t site, uint32_t stack,
                   uint64_t (*now_ns)()) noexcept;
  /// Applies `bytes` to the level; the peak before and after.
  std::pair<uint64_t, uint64_t> move_level(int64_t bytes) noexcept;
  Level level() const noexcept;
  template <class Visit> void visit_rows(LedgerTable Lane::*table, Visit &visit) const {
    const uint64_t peak = this->peak();
    for (const Lane &lane : lanes_)
      (lane.*table).for_each([&](const LedgerRow &row) {
        visit(row.key, row.live, row.at_peak(peak));
      });
  }

  std::array<Lane, kLedgerLanes + 1> lanes_{}; ///< the last: threads without a lane of their own
  SpinLock shared_lane_lock_;
  alignas(64) Level level_;
  mutable SpinLock level_lock_; ///< only without a 16-byte compare and swap
  std::atomic<uint64_t> peak_ns_{0}, period_{0};
};

} // namespace prof::memory

#endif
