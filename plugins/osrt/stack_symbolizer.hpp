// Call stacks of slow calls: return addresses from the unwinder, turned into
// interned function names (prof::stacks) through a fixed-size cache.
#ifndef PROF_PLUGINS_OSRT_STACK_SYMBOLIZER_HPP
#define PROF_PLUGINS_OSRT_STACK_SYMBOLIZER_HPP

#include <prof/plugin.hpp>
#include <prof/spin_lock.hpp>

#include <cstdint>
#include <string>

namespace prof::osrt {

class StackSymbolizer {
public:
  explicit StackSymbolizer(const Host &host);
  ~StackSymbolizer();
  StackSymbolizer(const StackSymbolizer &) = delete;
  StackSymbolizer &operator=(const StackSymbolizer &) = delete;
  /// String id of the function holding return address `address`.
  prof_string_id frame(uintptr_t address);
  void reset_lock() noexcept { lock_.reset(); }

private:
  struct Entry {
    uintptr_t address;
    prof_string_id name;
  };
  static constexpr std::size_t kCapacity = 4096; // a power of two
  Host host_;
  SpinLock lock_;
  /// The cache, in pages the kernel zeroes as they are first touched: zeroed
  /// here, its 64 KB cost every process 16 page faults at osrt's start. Null
  /// (nothing cached) when it could not be mapped.
  Entry *entries_ = nullptr;
};

} // namespace prof::osrt

#endif
