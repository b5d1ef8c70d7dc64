// Device memory: host memory (64-byte aligned) handed out by gcuMalloc, with
// a table of allocations so copies and frees can be checked.
#ifndef PROF_GCUSIM_DEVICE_MEMORY_HPP
#define PROF_GCUSIM_DEVICE_MEMORY_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace prof::gcusim {

class DeviceMemory {
public:
  /// Each device's modelled memory size.
  static constexpr uint64_t kBytesPerDevice = 32ull << 30;

  explicit DeviceMemory(uint32_t device_count) : used_(device_count, 0) {}
  /// The new allocation, or nullptr when the device is out of memory.
  void *allocate(uint32_t device, size_t bytes);
  /// The device owning the allocation that starts at `ptr`.
  std::optional<uint32_t> owner(const void *ptr) const;
  /// Frees the allocation that starts at `ptr`; false when there is none.
  bool release(void *ptr);
  /// The device whose memory holds all of [ptr, ptr + bytes), if any.
  std::optional<uint32_t> find(const void *ptr, size_t bytes) const;

private:
  struct Allocation {
    size_t bytes;    // as requested: accesses are checked against it
    size_t reserved; // rounded up to 64, counted against the device
    uint32_t device;
  };
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_; // by start address
  std::vector<uint64_t> used_;
};

} // namespace prof::gcusim

#endif
