// The call stacks of sampled allocations as the hooks take them: return
// addresses and Python frames, each distinct stack once, their names left
// for the memory source's worker. Like the heap table it lives on pages from
// the kernel behind a spin lock: it is entered from inside malloc.
#ifndef PROF_PLUGINS_MEMORY_RAW_STACK_TABLE_HPP
#define PROF_PLUGINS_MEMORY_RAW_STACK_TABLE_HPP

#include <prof/python/frame_walk.hpp>
#include <prof/spin_lock.hpp>

#include <atomic>
#include <cstdint>

namespace prof::memory {

inline constexpr int kStackNativeFrames = 64;
inline constexpr int kStackPythonFrames = 64;

struct RawStack {
  uint16_t native_count = 0;
  uint16_t python_count = 0;
  uintptr_t native[kStackNativeFrames];              ///< return addresses, leaf first
  python::PythonFrameRef python[kStackPythonFrames]; ///< leaf first
};

class RawStackTable {
public:
  /// Distinct stacks kept at most; later new ones are counted, not kept.
  static constexpr uint32_t kCapacity = 16384;

  RawStackTable() = default;
  RawStackTable(const RawStackTable &) = delete;
  RawStackTable &operator=(const RawStackTable &) = delete;

  /// The id (from 1) of `stack`, added if new; 0 when the table is full.
  uint32_t intern(const RawStack &stack) noexcept;
  /// Stacks kept so far: ids 1..size(), which never change once there.
  uint32_t size() const noexcept { return size_.load(std::memory_order_acquire); }
  const RawStack &at(uint32_t id) const noexcept { return entries_[id - 1]; }
  /// Samples whose new stack found the table full.
  uint64_t refused() const noexcept { return refused_.load(std::memory_order_relaxed); }
  /// Around fork(), as HeapTable's.
  void lock() noexcept { lock_.lock(); }
  void unlock() noexcept { lock_.unlock(); }

private:
  static constexpr uint32_t kSlots = kCapacity * 2; ///< the index, a power of two
  static uint64_t hash(const RawStack &stack) noexcept;
  static bool same(const RawStack &a, const RawStack &b) noexcept;

  SpinLock lock_;
  RawStack *entries_ = nullptr; ///< kCapacity entries, mapped at the first intern
  uint32_t *slots_ = nullptr;   ///< ids by hash, 0 free
  bool unmapped_ = false;       ///< the kernel refused the pages
  std::atomic<uint32_t> size_{0};
  std::atomic<uint64_t> refused_{0};
};

} // namespace prof::memory

#endif
