// Where each thread's latest forward operators began, by autograd sequence
// number, so that a backward node (on any thread) finds the forward
// operator it differentiates. A table per forward thread (torch's thread
// number), direct-mapped by sequence number: an entry lives until the slot
// is reused 8192 operators later. Lock-free; an entry read while its
// thread rewrites it is seen as missing, never torn.
#ifndef PROF_PLUGINS_TORCH_FORWARD_TABLES_HPP
#define PROF_PLUGINS_TORCH_FORWARD_TABLES_HPP

#include <prof/event.h>

#include <array>
#include <atomic>
#include <cstdint>

namespace prof::torch {

class ForwardTables {
public:
  static constexpr uint64_t kThreads = 1024;
  static constexpr uint64_t kSlots = 8192;

  ForwardTables() = default;
  ~ForwardTables();
  ForwardTables(const ForwardTables &) = delete;
  ForwardTables &operator=(const ForwardTables &) = delete;

  /// The operator with `sequence` began at `ts` on `track`, on torch's thread `thread`.
  void record(uint64_t thread, int64_t sequence, uint64_t ts, prof_track_id track);
  /// Where the latest forward operator with `sequence` on `thread` began;
  /// false when none is known. Taken: a second take finds nothing.
  bool take(uint64_t thread, int64_t sequence, uint64_t &ts, prof_track_id &track);

private:
  struct Slot {
    std::atomic<int64_t> sequence{-1};
    std::atomic<uint64_t> ts{0};
    std::atomic<uint32_t> track{0};
  };
  struct Table {
    std::array<Slot, kSlots> slots;
  };
  Table *table(uint64_t thread, bool create);
  std::array<std::atomic<Table *>, kThreads> tables_{};
};

} // namespace prof::torch

#endif
