#include "peak_ledger.hpp"

#include "kernel_pages.hpp"
#include "stack_sampler.hpp"

#include <bit>

namespace prof::memory {
namespace {

constexpr size_t kFirstRows = 256;

size_t slot_of(uintptr_t key, size_t capacity) noexcept {
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
}

// The calling thread's lane; threads take them in turn.
#if defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
// The level this thread saw last: the first guess of its next compare and
// swap (right whenever no other thread moved it since).
__thread unsigned __int128 t_level __attribute__((tls_model("initial-exec"))) = 0;
#endif
std::atomic<unsigned> g_lanes{0};

} // namespace

bool LedgerTable::grow() noexcept {
  const size_t old_capacity = capacity_.load(std::memory_order_relaxed);
  LedgerRow *old_rows = rows_.load(std::memory_order_relaxed);
  if (old_rows != nullptr && outgrown_count_ == kMaxArrays) return false;
  const size_t capacity = old_capacity == 0 ? kFirstRows : old_capacity * 2;
  auto *rows = static_cast<LedgerRow *>(map_kernel_pages(capacity * sizeof(LedgerRow)));
  if (rows == nullptr) return false;
  for (size_t i = 0; i < old_capacity; ++i) {
    if (!old_rows[i].filled) continue;
    size_t at = slot_of(old_rows[i].key, capacity);
    while (rows[at].filled)
      at = (at + 1) & (capacity - 1);
    rows[at] = old_rows[i];
  }
  // Readers may be in the old array: it stays mapped until release().
  if (old_rows != nullptr) outgrown_[outgrown_count_++] = old_rows;
  rows_.store(rows, std::memory_order_release);
  capacity_.store(capacity, std::memory_order_release);
  last_ = 0;
  return true;
}

LedgerRow *LedgerTable::find(uintptr_t key) noexcept {
  LedgerRow *rows = rows_.load(std::memory_order_relaxed);
  if (rows != nullptr && rows[last_].filled && rows[last_].key == key) [[likely]]
    return &rows[last_];
  size_t capacity = capacity_.load(std::memory_order_relaxed);
  if ((used_ + 1) * 4 > capacity * 3) {
    if (!grow()) return nullptr;
    rows = rows_.load(std::memory_order_relaxed);
    capacity = capacity_.load(std::memory_order_relaxed);
  }
  size_t at = slot_of(key, capacity);
  while (rows[at].filled && rows[at].key != key)
    at = (at + 1) & (capacity - 1);
  LedgerRow &row = rows[at];
  if (!row.filled) {
    row.filled = true;
    row.key = key;
    ++used_;
  }
  last_ = at;
  return &row;
}

bool LedgerTable::change(uintptr_t key, int64_t bytes, int64_t blocks, double weight,
                         double variance, uint64_t before, uint64_t after) noexcept {
  LedgerRow *row = find(key);
  if (row == nullptr) return false;
  // A peak came since the row's last change, and not by this one: the row
  // held then what it holds now.
  if (before > row->seen && after == before) row->at_seen_peak = row->live;
  row->live.bytes += bytes;
  row->live.blocks += blocks;
  row->live.weight += weight;
  row->live.variance += variance;
  // This change made the peak: the row's value at it includes it.
  if (after > before) row->at_seen_peak = row->live;
  row->seen = after;
  return true;
}

void LedgerTable::release() noexcept {
  // Each array was twice the one before.
  size_t capacity = capacity_.load(std::memory_order_relaxed);
  if (LedgerRow *rows = rows_.load(std::memory_order_relaxed))
    unmap_kernel_pages(rows, capacity * sizeof(LedgerRow));
  for (size_t i = outgrown_count_; i > 0; --i) {
    capacity /= 2;
    unmap_kernel_pages(outgrown_[i - 1], capacity * sizeof(LedgerRow));
  }
  rows_.store(nullptr, std::memory_order_relaxed);
  capacity_.store(0, std::memory_order_relaxed);
  used_ = last_ = outgrown_count_ = 0;
}

std::pair<uint64_t, uint64_t> PeakLedger::move_level(int64_t bytes) noexcept {
#if defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
  using Word = unsigned __int128;
  auto *word = reinterpret_cast<Word *>(&level_);
  Word expected = t_level;
  for (;;) {
    const auto seen = std::bit_cast<Level>(expected);
    Level next{seen.in_use + bytes, seen.peak};
    if (next.in_use > 0 && static_cast<uint64_t>(next.in_use) > next.peak)
      next.peak = static_cast<uint64_t>(next.in_use);
    const auto desired = std::bit_cast<Word>(next);
    const Word found = __sync_val_compare_and_swap(word, expected, desired);
    if (found == expected) {
      t_level = desired;
      return {seen.peak, next.peak};
    }
    expected = found;
  }
#else
  std::lock_guard hold(level_lock_);
  const uint64_t before = level_.peak;
  level_.in_use += bytes;
  if (level_.in_use > 0 && static_cast<uint64_t>(level_.in_use) > level_.peak)
    level_.peak = static_cast<uint64_t>(level_.in_use);
  return {before, level_.peak};
#endif
}

PeakLedger::Level PeakLedger::level() const noexcept {
#if defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
  using Word = unsigned __int128;
  auto *word = reinterpret_cast<Word *>(const_cast<Level *>(&level_));
  // An atomic read: swaps 0 for 0, or fails and says what is there.
  return std::bit_cast<Level>(__sync_val_compare_and_swap(word, Word{0}, Word{0}));
#else
  std::lock_guard hold(level_lock_);
  return level_;
#endif
}

int64_t PeakLedger::in_use() const noexcept { return level().in_use; }
uint64_t PeakLedger::peak() const noexcept { return level().peak; }

void PeakLedger::change(int64_t bytes, int64_t blocks, uintptr_t site, uint32_t stack,
                        uint64_t (*now_ns)()) noexcept {
  if (LedgerLaneSlot *slot = LedgerLanes::own()) [[likely]] {
    const auto index = static_cast<size_t>(slot - LedgerLanes::all().data());
    change_lane(lanes_[index], bytes, blocks, site, stack, now_ns);
    return;
  }
  std::lock_guard hold(shared_lane_lock_);
  change_lane(lanes_[kLedgerLanes], bytes, blocks, site, stack, now_ns);
}

// The level moves before the rows, on the thread that alone writes them: a
// row's changes reach the level in the order they reach the row.
void PeakLedger::change_lane(Lane &lane, int64_t bytes, int64_t blocks, uintptr_t site,
                             uint32_t stack, uint64_t (*now_ns)()) noexcept {
  // prof's own blocks are no part of the heap's level: their row keeps what
  // they hold now, and no peak.
  const auto [before, after] =
      site == kProfSite ? std::pair<uint64_t, uint64_t>{0, 0} : move_level(bytes);
  if (after > before && now_ns != nullptr) peak_ns_.store(now_ns(), std::memory_order_relaxed);
  lane.sites.change(site, bytes, blocks, 0, 0, before, after);
  if (stack != 0) {
    const auto size = static_cast<uint64_t>(bytes < 0 ? -bytes : bytes);
    const uint64_t period = period_.load(std::memory_order_relaxed);
    const auto sign = static_cast<double>(blocks);
    lane.stacks.change(stack, bytes, blocks, sign * sampled_weight(size, period),
                       sign * sampled_variance(size, period), before, after);
  }
}

// Flattened: these run in every malloc and free, and the calls were a
// measurable part of their cost.
[[gnu::flatten]] void PeakLedger::add(uint64_t size, uintptr_t site, uint32_t stack,
                                      uint64_t (*now_ns)()) noexcept {
  change(static_cast<int64_t>(size), 1, site, stack, now_ns);
}

[[gnu::flatten]] void PeakLedger::remove(uint64_t size, uintptr_t site, uint32_t stack) noexcept {
  change(-static_cast<int64_t>(size), -1, site, stack, nullptr);
}

// A thread's own lane cannot be locked; the child forgets every lane anyway.
void PeakLedger::lock() noexcept {
  shared_lane_lock_.lock();
  level_lock_.lock();
}

void PeakLedger::unlock() noexcept {
  level_lock_.unlock();
  shared_lane_lock_.unlock();
}

void PeakLedger::forget_all() noexcept {
  for (Lane &lane : lanes_) {
    lane.sites.release();
    lane.stacks.release();
  }
  level_ = Level{};
  peak_ns_ = 0;
  LedgerLanes::keep_only_calling_thread();
}

} // namespace prof::memory
