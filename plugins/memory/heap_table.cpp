#include "heap_table.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mutex>

namespace prof::memory {
namespace {

// The kernel's mmap and munmap, not the C library's (which a process-scope
// plugin may interpose, this one included).
void *map_pages(size_t bytes) noexcept {
  const long address =
      syscall(SYS_mmap, nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return address < 0 && address > -4096 ? nullptr : reinterpret_cast<void *>(address);
}

void unmap_pages(void *address, size_t bytes) noexcept { syscall(SYS_munmap, address, bytes); }

constexpr size_t kFirstCapacity = 1024;

} // namespace

bool HeapTable::grow(Shard &shard) noexcept {
  const size_t capacity = shard.capacity == 0 ? kFirstCapacity : shard.capacity * 2;
  auto *slots = static_cast<Block *>(map_pages(capacity * sizeof(Block)));
  if (slots == nullptr) return false;
  for (size_t i = 0; i < shard.capacity; ++i) {
    const Block &block = shard.slots[i];
    if (block.address <= kErased) continue;
    size_t at = slot_of(block.address, capacity);
    while (slots[at].address != 0)
      at = (at + 1) & (capacity - 1);
    slots[at] = block;
  }
  if (shard.slots != nullptr) unmap_pages(shard.slots, shard.capacity * sizeof(Block));
  shard.slots = slots;
  shard.capacity = capacity;
  shard.used = shard.live;
  return true;
}

bool HeapTable::add(uintptr_t address, uint64_t size, uintptr_t site,
                    uint64_t (*now_ns)()) noexcept {
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
      in_use_.fetch_sub(static_cast<int64_t>(shard.slots[at].size), std::memory_order_relaxed);
      --shard.live;
    } else if (erased != shard.capacity) {
      at = erased;
    } else {
      ++shard.used;
    }
    shard.slots[at] = {address, size, site};
    ++shard.live;
  }
  allocations_.fetch_add(1, std::memory_order_relaxed);
  bytes_allocated_.fetch_add(size, std::memory_order_relaxed);
  by_class_[static_cast<size_t>(size_class(size))].fetch_add(1, std::memory_order_relaxed);
  const int64_t now = in_use_.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed) +
                      static_cast<int64_t>(size);
  uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > 0 && static_cast<uint64_t>(now) > peak) {
    if (peak_.compare_exchange_weak(peak, static_cast<uint64_t>(now), std::memory_order_relaxed)) {
      peak_ns_.store(now_ns ? now_ns() : 0, std::memory_order_relaxed);
      break;
    }
  }
  return true;
}

bool HeapTable::remove(uintptr_t address, Block *removed) noexcept {
  Shard &shard = shards_[hash(address) >> 58];
  Block found;
  {
    std::lock_guard lock(shard.lock);
    if (shard.capacity == 0) {
      unknown_frees_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    size_t at = slot_of(address, shard.capacity);
    while (shard.slots[at].address != 0 && shard.slots[at].address != address)
      at = (at + 1) & (shard.capacity - 1);
    if (shard.slots[at].address != address) {
      unknown_frees_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    found = shard.slots[at];
    shard.slots[at].address = kErased;
    --shard.live;
  }
  frees_.fetch_add(1, std::memory_order_relaxed);
  in_use_.fetch_sub(static_cast<int64_t>(found.size), std::memory_order_relaxed);
  if (removed != nullptr) *removed = found;
  return true;
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
  t.allocations = allocations_.load(std::memory_order_relaxed);
  t.frees = frees_.load(std::memory_order_relaxed);
  t.bytes_allocated = bytes_allocated_.load(std::memory_order_relaxed);
  t.in_use = in_use_.load(std::memory_order_relaxed);
  t.live_blocks = t.allocations >= t.frees ? t.allocations - t.frees : 0;
  t.peak = peak_.load(std::memory_order_relaxed);
  t.peak_ns = peak_ns_.load(std::memory_order_relaxed);
  t.unknown_frees = unknown_frees_.load(std::memory_order_relaxed);
  t.temporaries = temporaries.load(std::memory_order_relaxed);
  for (int k = 0; k < kSizeClasses; ++k)
    t.by_class[static_cast<size_t>(k)] =
        by_class_[static_cast<size_t>(k)].load(std::memory_order_relaxed);
  return t;
}

void HeapTable::lock_all() noexcept {
  for (Shard &shard : shards_)
    shard.lock.lock();
}

void HeapTable::forget_all() noexcept {
  for (Shard &shard : shards_) {
    if (shard.slots != nullptr) unmap_pages(shard.slots, shard.capacity * sizeof(Block));
    shard.slots = nullptr;
    shard.capacity = shard.used = shard.live = 0;
  }
  allocations_ = 0;
  frees_ = 0;
  bytes_allocated_ = 0;
  unknown_frees_ = 0;
  in_use_ = 0;
  peak_ = 0;
  peak_ns_ = 0;
  temporaries = 0;
  for (auto &count : by_class_)
    count = 0;
}

void HeapTable::unlock_all() noexcept {
  for (Shard &shard : shards_)
    shard.lock.unlock();
}

} // namespace prof::memory
