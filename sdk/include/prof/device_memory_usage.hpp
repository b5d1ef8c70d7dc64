// The "Memory used" counter of each device (event.h, "Memory events"),
// followed one way by every device source: the sum of the live device
// blocks the capture has seen allocated.
#ifndef PROF_DEVICE_MEMORY_USAGE_HPP
#define PROF_DEVICE_MEMORY_USAGE_HPP

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace prof {

/// Live device blocks per device, and their sum. Not thread safe.
class DeviceMemoryUsage {
public:
  /// Memory in use on `device` after an allocation or free of the block at
  /// `address`; nullopt when it did not change: a free of a block allocated
  /// before the capture. An allocation at a live block's address replaces
  /// it (its free was lost).
  std::optional<uint64_t> follow(uint32_t device, bool alloc, uint64_t address, uint64_t bytes) {
    Blocks &blocks = devices_[device];
    const auto known = blocks.live.find(address);
    if (!alloc && known == blocks.live.end()) return std::nullopt;
    if (known != blocks.live.end()) {
      blocks.used -= known->second;
      blocks.live.erase(known);
    }
    if (alloc) {
      blocks.live.emplace(address, bytes);
      blocks.used += bytes;
    }
    return blocks.used;
  }

private:
  struct Blocks {
    std::unordered_map<uint64_t, uint64_t> live; // address -> bytes
    uint64_t used = 0;
  };
  std::unordered_map<uint32_t, Blocks> devices_;
};

} // namespace prof

#endif
