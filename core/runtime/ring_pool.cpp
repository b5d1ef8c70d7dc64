#include "core/runtime/ring_pool.hpp"

#include "core/runtime/page_give_back.hpp"
#include "core/runtime/process_gone.hpp"
#include "core/runtime/raw_mutex.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace prof::core {

namespace {
std::atomic<uint64_t> next_pool_id{1};
// Pools alive now, by id: a thread that exits after its pool is gone must
// not touch it. Only thread exits and pool lifetimes take the lock.
RawMutex live_pools_mutex; // taken in the application: see raw_mutex.hpp
std::vector<std::pair<uint64_t, RingPool *>> live_pools;
constexpr size_t kBatch = 4096;

} // namespace

thread_local RingPool::ThreadSlot RingPool::thread_slot_;
// Set once the thread's exit hook has run: trivially destructible, so it can
// still be read by code running after thread_local destructors.
thread_local bool thread_exiting = false;

/// Gives the thread's ring back when the thread exits, so pools of
/// short-lived threads do not use up the rings. The main thread's hook runs
/// at exit() before static destructors and ELF fini functions (the agent's),
/// which may still emit: the thread then claims a ring that is not given back
/// and is drained once the process is gone. Emitting into the given-back one
/// would lose the events once prof frees it.
struct RingExitHook {
  ~RingExitHook() {
    thread_exiting = true;
    auto &slot = RingPool::thread_slot_;
    if (slot.pool_id == 0) return;
    std::lock_guard lock(live_pools_mutex);
    for (auto [id, pool] : live_pools)
      if (id == slot.pool_id) pool->release(slot.index);
    slot = RingPool::ThreadSlot{};
  }
};

RingPool::RingPool(char *rings, size_t stride, RingSlot *slots, uint32_t count, uint64_t capacity,
                   uint64_t watermark_events, std::atomic<uint64_t> *no_ring_drops,
                   bool check_owners, const std::atomic<uint32_t> *ready)
    : id_(next_pool_id.fetch_add(1)), rings_(rings), stride_(stride), slots_(slots), count_(count),
      capacity_(capacity), watermark_events_(watermark_events), no_ring_drops_(no_ring_drops),
      check_owners_(check_owners), ready_(ready) {
  if (watermark_events_ == 0 || watermark_events_ > capacity_) watermark_events_ = capacity_ / 2;
  batch_.reset(new prof_event[kBatch]);
  abandoned_.assign(count_, false);
  last_full_drain_ = std::chrono::steady_clock::now();
  std::lock_guard lock(live_pools_mutex);
  live_pools.emplace_back(id_, this);
}

void RingPool::reset_in_forked_child() noexcept {
  // Thread exits hold the list only to read it: it is whole in the child.
  live_pools_mutex.reset_in_forked_child();
  forget_thread_ring();
}

void RingPool::set_give_back(GiveBack mode) {
  if (capacity_ < 4 * kGiveBackReserve) mode = GiveBack::Never;
  give_back_ = mode;
  producer_reserve_ = mode == GiveBack::PrivateMemory ? kGiveBackReserve : 0;
  const uint64_t behind = mode == GiveBack::SharedMemory
                              ? (kFaultAroundBytes + page_bytes()) / sizeof(prof_event) + 1
                              : kGiveBackReserve;
  given_back_.assign(mode == GiveBack::Never ? 0 : count_, PageGiveBack{behind, 0});
  head_at_full_drain_.assign(mode == GiveBack::PrivateMemory ? count_ : 0, 0);
}

bool RingPool::slow_ring(uint64_t written, std::chrono::steady_clock::duration elapsed) const {
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  // written / elapsed < capacity / cycle, without dividing.
  // Capped at an hour so that the product below cannot overflow.
  const auto elapsed_us = std::min<uint64_t>(
      static_cast<uint64_t>(duration_cast<microseconds>(elapsed).count()), 3'600'000'000);
  const auto cycle_us = static_cast<uint64_t>(duration_cast<microseconds>(kGiveBackCycle).count());
  return written < capacity_ && written * cycle_us < capacity_ * elapsed_us;
}

RingPool::~RingPool() {
  std::lock_guard lock(live_pools_mutex);
  std::erase_if(live_pools, [this](const auto &entry) { return entry.first == id_; });
}

bool RingPool::emit_slow(const prof_event &event) {
  return claim_ring() && thread_slot_.ring.push(event);
}

bool RingPool::emit_group_slow(const prof_event *records, uint32_t count) {
  return claim_ring() && thread_slot_.ring.push_group(records, count);
}

bool RingPool::claim_ring() {
  if (!thread_exiting) {
    thread_local RingExitHook exit_hook; // registered once per thread
    (void)exit_hook;
  }
  const auto pid = static_cast<int32_t>(getpid());
  const auto tid = static_cast<int32_t>(syscall(SYS_gettid));
  const auto usable = [this] {
    return ready_ ? std::min(ready_->load(std::memory_order_acquire), count_) : count_;
  };
  const auto claim_below = [&](uint32_t end) {
    for (uint32_t i = 0; i < end; ++i) {
      uint32_t expected = kFree;
      if (slots_[i].state.compare_exchange_strong(expected, kOwned, std::memory_order_acq_rel)) {
        slots_[i].pid.store(pid, std::memory_order_relaxed);
        slots_[i].tid.store(tid, std::memory_order_relaxed);
        thread_slot_ = ThreadSlot{
            id_, RingBuffer::attach(rings_ + i * stride_, capacity_, producer_reserve_), i};
        return true;
      }
    }
    return false;
  };
  // Every backed ring taken: back the next one rather than lose events
  // until prof reserves more. Another thread (or prof) may publish a ring
  // while this one waits to grow and then take it first: grow again.
  if (claim_below(usable())) return true;
  for (int attempt = 0; grow_ && attempt < kGrowAttempts; ++attempt) {
    if (!grow_(grow_context_)) break;
    if (claim_below(usable())) return true;
  }
  no_ring_drops_->fetch_add(1, std::memory_order_relaxed);
  return false;
}

void RingPool::release(uint32_t index) {
  if (index < count_) slots_[index].state.store(kReleased, std::memory_order_release);
}

void RingPool::retire(uint32_t index) {
  // Keep the owner's drops, reset the ring and hand it out again.
  RingBuffer ring = RingBuffer::attach(rings_ + index * stride_, capacity_);
  RingHeader *header = ring.header();
  if (uint64_t dropped = ring.dropped()) {
    std::lock_guard lock(retired_mutex_);
    retired_drops_.push_back({index, slots_[index].tid.load(), dropped});
  }
  header->dropped.store(0);
  header->cached_tail = header->tail.load();
  slots_[index].state.store(kFree, std::memory_order_release);
}

size_t RingPool::drain(const std::function<void(prof_event *, size_t)> &consume, bool all) {
  size_t total = 0;
  // Only private rings weigh what giving back costs their producers.
  const bool measure_rates = all && give_back_ == GiveBack::PrivateMemory;
  const auto now = measure_rates ? std::chrono::steady_clock::now() : last_full_drain_;
  const auto elapsed = now - last_full_drain_;
  if (measure_rates) last_full_drain_ = now;
  for (uint32_t i = 0; i < count_; ++i) {
    uint32_t state = slots_[i].state.load(std::memory_order_acquire);
    if (state == kFree || abandoned_[i]) continue;
    // A process killed while owning rings never gives them back: what it
    // wrote is drained, then the ring is freed.
    const bool owner_gone =
        check_owners_ && state == kOwned && all &&
        !(owners_unchecked_ && owners_unchecked_->load(std::memory_order_relaxed)) &&
        process_gone(slots_[i].pid.load());
    RingBuffer ring = RingBuffer::attach(rings_ + i * stride_, capacity_);
    if (!ring.intact()) {
      abandon(i);
      continue;
    }
    if (!all && ring.size() < watermark_events_) continue;
    PageGiveBack *give_back = give_back_ == GiveBack::SharedMemory ? &given_back_[i] : nullptr;
    if (measure_rates) {
      const uint64_t head = ring.header()->head.load(std::memory_order_acquire);
      if (slow_ring(head - head_at_full_drain_[i], elapsed)) give_back = &given_back_[i];
      head_at_full_drain_[i] = head;
    }
    // At most what the ring held when the drain came, plus what its writer
    // adds meanwhile: a ring whose positions go bad mid-way is left then.
    for (size_t n; ring.intact() && (n = ring.pop(batch_.get(), kBatch, give_back)) > 0;) {
      consume(batch_.get(), n);
      total += n;
    }
    if (!ring.intact()) {
      abandon(i);
      continue;
    }
    if (state == kReleased || owner_gone) retire(i);
  }
  return total;
}

void RingPool::abandon(uint32_t index) {
  RingBuffer ring = RingBuffer::attach(rings_ + index * stride_, capacity_);
  abandoned_[index] = true;
  corrupt_.push_back({index, slots_[index].pid.load(), slots_[index].tid.load(),
                      ring.header()->head.load(), ring.header()->tail.load()});
}

std::vector<CorruptRing> RingPool::take_corrupt_rings() { return std::exchange(corrupt_, {}); }

uint64_t RingPool::dropped() const {
  uint64_t total = 0;
  for (const RingDrops &d : drops())
    total += d.dropped;
  return total;
}

std::vector<RingDrops> RingPool::drops() const {
  std::vector<RingDrops> result;
  {
    std::lock_guard lock(retired_mutex_);
    result = retired_drops_;
  }
  for (uint32_t i = 0; i < count_; ++i) {
    // A free ring was never taken or was retired (its drops kept above and
    // reset): nothing to read, and reading it would fault in its page.
    if (slots_[i].state.load(std::memory_order_acquire) == kFree) continue;
    RingBuffer ring = RingBuffer::attach(rings_ + i * stride_, capacity_);
    if (uint64_t dropped = ring.dropped()) result.push_back({i, slots_[i].tid.load(), dropped});
  }
  // Emits that found every ring taken: a ring-full loss too, in the
  // report like the others (before, only the footer's total had them).
  if (const uint64_t no_ring = dropped_without_ring()) result.push_back({count_, 0, no_ring});
  return result;
}

} // namespace prof::core
