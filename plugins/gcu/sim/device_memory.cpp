#include "device_memory.hpp"

#include <cstdlib>

namespace prof::gcusim {

void *DeviceMemory::allocate(uint32_t device, size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded < bytes) return nullptr;
  {
    std::lock_guard lock(mutex_);
    if (rounded > kBytesPerDevice - used_[device]) return nullptr;
    used_[device] += rounded;
  }
  void *ptr = std::aligned_alloc(64, rounded);
  std::lock_guard lock(mutex_);
  if (ptr == nullptr) {
    used_[device] -= rounded;
    return nullptr;
  }
  allocations_.emplace(reinterpret_cast<uintptr_t>(ptr), Allocation{bytes, rounded, device});
  return ptr;
}

std::optional<uint32_t> DeviceMemory::owner(const void *ptr) const {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations_.end()) return std::nullopt;
  return it->second.device;
}

bool DeviceMemory::release(void *ptr) {
  {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end()) return false;
    used_[it->second.device] -= it->second.reserved;
    allocations_.erase(it);
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
  if (offset >= it->second.bytes || bytes > it->second.bytes - offset) return std::nullopt;
  return it->second.device;
}

} // namespace prof::gcusim
