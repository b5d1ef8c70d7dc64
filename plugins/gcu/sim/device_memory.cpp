#include "device_memory.hpp"

#include <cstdlib>

namespace prof::gcusim {

void *DeviceMemory::allocate(uint32_t device, size_t bytes, prof_gcu_memory_kind memory,
                             const ChangeObserver &observe) {
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded < bytes) return nullptr;
  const bool counted = memory == PROF_GCU_MEMORY_DEVICE;
  if (counted) {
    std::lock_guard lock(mutex_);
    if (rounded > kBytesPerDevice - used_[device]) return nullptr;
    used_[device] += rounded;
  }
  void *ptr = std::aligned_alloc(64, rounded);
  std::lock_guard lock(mutex_);
  if (ptr == nullptr) {
    if (counted) used_[device] -= rounded;
    return nullptr;
  }
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  allocations_.emplace(address, Allocation{bytes, rounded, device, memory});
  observe({device, PROF_GCU_MEMORY_ALLOC, memory, address, bytes});
  return ptr;
}

std::optional<uint32_t> DeviceMemory::owner(const void *ptr, prof_gcu_memory_kind memory) const {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations_.end() || it->second.memory != memory) return std::nullopt;
  return it->second.device;
}

bool DeviceMemory::release(void *ptr, prof_gcu_memory_kind memory, const ChangeObserver &observe) {
  {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end() || it->second.memory != memory) return false;
    const Allocation block = it->second;
    const uintptr_t address = it->first;
    if (memory == PROF_GCU_MEMORY_DEVICE) used_[block.device] -= block.reserved;
    allocations_.erase(it);
    // Before std::free: the address cannot be handed out again until then.
    observe({block.device, PROF_GCU_MEMORY_FREE, memory, address, block.bytes});
  }
  std::free(ptr);
  return true;
}

std::optional<uint32_t> DeviceMemory::find(const void *ptr, size_t bytes) const {
  auto address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  uintptr_t offset = address - it->first;
  if (it->second.memory != PROF_GCU_MEMORY_DEVICE || offset >= it->second.bytes ||
      bytes > it->second.bytes - offset)
    return std::nullopt;
  return it->second.device;
}

} // namespace prof::gcusim
