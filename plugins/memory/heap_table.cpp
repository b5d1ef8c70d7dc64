#include "heap_table.hpp"

#include "kernel_pages.hpp"

#include <algorithm>
#include <mutex>

namespace prof::memory {
namespace {

constexpr size_t kFirstCapacity = 1024;

} // namespace

bool HeapTable::grow(Shard &shard) noexcept {
  const size_t capacity = shard.capacity == 0 ? kFirstCapacity : shard.capacity * 2;
  auto *slots = static_cast<Block *>(map_kernel_pages(capacity * sizeof(Block)));
  if (slots == nullptr) return false;
  for (size_t i = 0; i < shard.capacity; ++i) {
    const Block &block = shard.slots[i];
    if (block.address <= kErased) continue;
    size_t at = slot_of(block.address, capacity);
    while (slots[at].address != 0)
      at = (at + 1) & (capacity - 1);
    slots[at] = block;
  }
  if (shard.slots != nullptr) unmap_kernel_pages(shard.slots, shard.capacity * sizeof(Block));
  shard.slots = slots;
  shard.capacity = capacity;
  shard.used = shard.live;
  return true;
}

void HeapTable::log_event(const HeapEvent &event) noexcept {
  const size_t slot = logged_.fetch_add(1, std::memory_order_relaxed);
  if (slot < log_capacity_)
    log_[slot] = event;
  else
    log_full_.fetch_add(1, std::memory_order_relaxed);
}

bool HeapTable::start_events(size_t capacity, uint64_t (*now_ns)()) noexcept {
  if (logs_events()) return true;
  auto *log = static_cast<HeapEvent *>(map_kernel_pages(capacity * sizeof(HeapEvent)));
  auto *taken = static_cast<HeapEvent *>(map_kernel_pages(capacity * sizeof(HeapEvent)));
  if (log == nullptr || taken == nullptr) {
    if (log != nullptr) unmap_kernel_pages(log, capacity * sizeof(HeapEvent));
    if (taken != nullptr) unmap_kernel_pages(taken, capacity * sizeof(HeapEvent));
    return false;
  }
  lock_all();
  log_ = log;
  taken_log_ = taken;
  log_capacity_ = capacity;
  logged_.store(0, std::memory_order_relaxed);
  log_clock_.store(now_ns, std::memory_order_relaxed);
  unlock_all();
  return true;
}

uint64_t HeapTable::take_events(std::vector<HeapEvent> &out) {
  if (!logs_events()) return 0;
  // Under every lock: no write is under way, and an event logged after
  // this is later than every event taken now.
  lock_all();
  std::swap(log_, taken_log_);
  const size_t count = std::min(logged_.exchange(0, std::memory_order_relaxed), log_capacity_);
  const uint64_t full = log_full_.exchange(0, std::memory_order_relaxed);
  unlock_all();
  const size_t first = out.size();
  out.insert(out.end(), taken_log_, taken_log_ + count);
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [](const HeapEvent &a, const HeapEvent &b) { return a.ts < b.ts; });
  return full;
}

bool HeapTable::add(const Block &block, uint64_t (*now_ns)(), int tid) noexcept {
  const uintptr_t address = block.address;
  const uint64_t size = block.size;
  Shard &shard = shards_[hash(address) >> 58];
  {
    std::lock_guard lock(shard.lock);
    if ((shard.used + 1) * 4 > shard.capacity * 3 && !grow(shard)) return false;
    size_t at = slot_of(address, shard.capacity);
    size_t erased = shard.capacity;
    while (shard.slots[at].address != 0 && shard.slots[at].address != address) {
      if (shard.slots[at].address == kErased && erased == shard.capacity) erased = at;
      at = (at + 1) & (shard.capacity - 1);
    }
    if (shard.slots[at].address == address) { // never freed as far as we saw: replaced
      const Block &old = shard.slots[at];
      ledger_.remove(old.size, old.site, old.stack);
      --shard.live;
    } else if (erased != shard.capacity) {
      at = erased;
    } else {
      ++shard.used;
    }
    shard.slots[at] = block;
    ++shard.live;
    ++shard.allocations;
    shard.bytes_allocated += size;
    ++shard.by_class[static_cast<size_t>(size_class(size))];
    if (const auto clock = log_clock_.load(std::memory_order_relaxed))
      log_event({clock(), address, size, tid, false});
    ledger_.add(size, block.site, block.stack, now_ns);
  }
  return true;
}

bool HeapTable::remove(uintptr_t address, Block *removed, bool temporary, int tid) noexcept {
  Shard &shard = shards_[hash(address) >> 58];
  Block found;
  {
    std::lock_guard lock(shard.lock);
    if (shard.capacity == 0) {
      ++shard.unknown_frees;
      return false;
    }
    size_t at = slot_of(address, shard.capacity);
    while (shard.slots[at].address != 0 && shard.slots[at].address != address)
      at = (at + 1) & (shard.capacity - 1);
    if (shard.slots[at].address != address) {
      ++shard.unknown_frees;
      return false;
    }
    found = shard.slots[at];
    shard.slots[at].address = kErased;
    --shard.live;
    ++shard.frees;
    shard.temporaries += temporary;
    if (const auto clock = log_clock_.load(std::memory_order_relaxed))
      log_event({clock(), address, found.size, tid, true});
    ledger_.remove(found.size, found.site, found.stack);
  }
  if (removed != nullptr) *removed = found;
  return true;
}

bool HeapTable::find_overlapping(uintptr_t begin, uintptr_t end, Block *found) const noexcept {
  for (const Shard &shard : shards_) {
    std::lock_guard lock(shard.lock);
    for (size_t i = 0; i < shard.capacity; ++i) {
      const Block &block = shard.slots[i];
      if (block.address > kErased && block.address < end && block.address + block.size > begin) {
        *found = block;
        return true;
      }
    }
  }
  return false;
}

void HeapTable::for_each(const std::function<void(const Block &)> &visit) const {
  for (const Shard &shard : shards_) {
    std::lock_guard lock(shard.lock);
    for (size_t i = 0; i < shard.capacity; ++i)
      if (shard.slots[i].address > kErased) visit(shard.slots[i]);
  }
}

HeapTotals HeapTable::totals() const noexcept {
  HeapTotals t;
  for (const Shard &shard : shards_) {
    std::lock_guard lock(shard.lock);
    t.allocations += shard.allocations;
    t.frees += shard.frees;
    t.bytes_allocated += shard.bytes_allocated;
    t.unknown_frees += shard.unknown_frees;
    t.temporaries += shard.temporaries;
    for (size_t k = 0; k < shard.by_class.size(); ++k)
      t.by_class[k] += shard.by_class[k];
  }
  t.in_use = ledger_.in_use();
  t.peak = ledger_.peak();
  t.peak_ns = ledger_.peak_ns();
  return t;
}

void HeapTable::lock_all() noexcept {
  for (Shard &shard : shards_)
    shard.lock.lock();
  ledger_.lock();
}

void HeapTable::forget_all() noexcept {
  for (Shard &shard : shards_) {
    if (shard.slots != nullptr) unmap_kernel_pages(shard.slots, shard.capacity * sizeof(Block));
    shard.slots = nullptr;
    shard.capacity = shard.used = shard.live = 0;
    shard.allocations = shard.frees = shard.bytes_allocated = shard.unknown_frees = 0;
    shard.temporaries = 0;
    shard.by_class = {};
  }
  ledger_.forget_all();
  logged_ = 0; // the parent's events are the parent's
  log_full_ = 0;
}

void HeapTable::unlock_all() noexcept {
  ledger_.unlock();
  for (Shard &shard : shards_)
    shard.lock.unlock();
}

} // namespace prof::memory
