// When a device was busy: the union of its slices' [begin, end) intervals,
// kept as sorted, disjoint periods. Slices arrive in any order; they are
// buffered a bounded number at a time and folded in, so memory grows with
// the number of separate busy periods, not with the number of slices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace prof::stats {

struct Period {
  uint64_t begin = 0;
  uint64_t end = 0; ///< exclusive
  bool operator==(const Period &) const = default;
};

/// Busy time of one window of a device's timeline.
struct WindowBusy {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t busy = 0; ///< ns of [begin, end) inside a busy period
};

class BusyTimeline {
public:
  /// Periods separated by at most `join_gap` ns are joined: the gaps report
  /// needs none shorter than its threshold, and joining them bounds memory.
  /// Keep 0 for exact busy time (utilization).
  explicit BusyTimeline(uint64_t join_gap = 0) : join_gap_(join_gap) {}

  /// One slice; empty ones are ignored. Amortized O(log n).
  void add(uint64_t begin, uint64_t end) {
    if (end <= begin) return;
    pending_.push_back({begin, end});
    if (pending_.size() >= kPendingLimit) fold();
  }
  /// Adds `other`'s periods (moved from).
  void merge(BusyTimeline &other);

  /// The sorted, disjoint busy periods.
  const std::vector<Period> &periods();
  /// Total busy ns.
  uint64_t busy();

  /// Idle gaps strictly longer than `threshold` ns between busy periods.
  std::vector<Period> gaps(uint64_t threshold);
  /// Busy ns in consecutive windows of `interval` ns from `origin` up to
  /// `until` (the last window is cut there).
  std::vector<WindowBusy> utilization(uint64_t origin, uint64_t until, uint64_t interval);

private:
  static constexpr size_t kPendingLimit = 1 << 16;
  void fold();

  uint64_t join_gap_;
  std::vector<Period> periods_; // sorted, disjoint, gaps > join_gap_
  std::vector<Period> pending_; // unsorted, not yet folded in
};

} // namespace prof::stats
