// Device memory and pinned host memory: host memory (64-byte aligned) handed
// out by gcuMalloc and gcuMallocHost, with a table of blocks so copies and
// frees can be checked, and every change reported in table order.
#ifndef PROF_GCUSIM_DEVICE_MEMORY_HPP
#define PROF_GCUSIM_DEVICE_MEMORY_HPP

#include <prof/gcu_driver.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace prof::gcusim {

/// One allocation or free, as the memory records describe it.
struct BlockChange {
  uint32_t device;
  prof_gcu_memory_operation operation;
  prof_gcu_memory_kind memory;
  uintptr_t address;
  size_t bytes; ///< as requested
};

class DeviceMemory {
public:
  /// Each device's modelled memory size.
  static constexpr uint64_t kBytesPerDevice = 32ull << 30;
  /// Called under the table's lock, so that changes are seen in the order
  /// they were made (an address freed and allocated again comes out in order).
  using ChangeObserver = std::function<void(const BlockChange &)>;

  explicit DeviceMemory(uint32_t device_count) : used_(device_count, 0) {}
  /// A new block of `memory` for `device`, or nullptr when the device is out
  /// of memory (pinned blocks count against no device).
  void *allocate(uint32_t device, size_t bytes, prof_gcu_memory_kind memory,
                 const ChangeObserver &observe);
  /// The device of the `memory` block that starts at `ptr`.
  std::optional<uint32_t> owner(const void *ptr, prof_gcu_memory_kind memory) const;
  /// Frees the `memory` block that starts at `ptr`; false when there is none.
  bool release(void *ptr, prof_gcu_memory_kind memory, const ChangeObserver &observe);
  /// The device whose memory holds all of [ptr, ptr + bytes), if any.
  std::optional<uint32_t> find(const void *ptr, size_t bytes) const;

private:
  struct Allocation {
    size_t bytes;    // as requested: accesses are checked against it
    size_t reserved; // rounded up to 64, counted against the device
    uint32_t device;
    prof_gcu_memory_kind memory;
  };
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_; // by start address
  std::vector<uint64_t> used_;                  // device memory only
};

} // namespace prof::gcusim

#endif
