// Where prof's own code lies in the process: the executable segments of its
// libraries (libprof-*.so: the agent, the plugins, the SDK's). The hooks ask
// it on every allocation, so that prof's own blocks stay out of the heap's
// level and peak (heaptrack leaves its own out too), and the reports ask it
// which call sites and stacks are prof's; it is read without a
// lock or a call, and refreshed from a plain context (the plugin's load,
// its start, each tick of its worker) since libraries come and go.
#ifndef PROF_PLUGINS_MEMORY_PROF_CODE_HPP
#define PROF_PLUGINS_MEMORY_PROF_CODE_HPP

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace prof::memory {

class ProfCode {
public:
  /// Reads the loaded libraries again (dl_iterate_phdr: takes the loader's
  /// lock, so never from inside an allocation). One caller at a time.
  void refresh() noexcept;
  /// Whether return address `address` lies in prof's code, as of the last
  /// refresh. Safe anywhere, on any thread.
  bool contains(uintptr_t address) const noexcept {
    const Ranges &ranges = sets_[current_.load(std::memory_order_acquire)];
    const size_t count = ranges.count.load(std::memory_order_acquire);
    // A return address points past its call: the call is at address - 1.
    for (size_t i = 0; i < count; ++i)
      if (address - 1 - ranges.begin[i].load(std::memory_order_relaxed) <
          ranges.size[i].load(std::memory_order_relaxed))
        return true;
    return false;
  }

  static constexpr size_t kMaxRanges = 32;

private:
  unsigned long long adds_ = 0, subs_ = 0; ///< the loader's counts at the last refresh
  struct Ranges {
    std::array<std::atomic<uintptr_t>, kMaxRanges> begin{}, size{};
    std::atomic<size_t> count{0};
  };
  // Two sets: a refresh fills the one not in use, then makes it current. A
  // reader still in a set two refreshes old may misjudge one allocation;
  // each block keeps the judgement it got, so the heap's figures still add up.
  std::array<Ranges, 2> sets_{};
  std::atomic<size_t> current_{0};
};

/// The process's one ProfCode.
ProfCode &prof_code();

} // namespace prof::memory

#endif
