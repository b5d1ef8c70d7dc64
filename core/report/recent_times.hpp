// The last few times an EVENTS payload has seen, so that a time seen again
// (a slice starting where another ends, a flow at its slice's start) is
// stored as how far back it was rather than as a delta.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace prof::report {

class RecentTimes {
public:
  static constexpr size_t kSize = 64;

  /// Adds `t`; returns how many adds ago `t` was last added, 1 .. kSize, or
  /// 0 when it was not (or its hash slot has since gone to another time).
  uint8_t see(uint64_t t) {
    uint64_t &latest = latest_[slot(t)];
    const uint64_t age = count_ - latest + 1;
    // & rather than && keeps this free of branches, which random times mispredict.
    const bool seen = (latest != 0) & (age <= kSize) & (ring_[(latest - 1) % kSize] == t);
    ring_[count_ % kSize] = t;
    latest = ++count_;
    return seen ? static_cast<uint8_t>(age) : 0;
  }
  /// Whether at() may be asked for `age`.
  bool holds(uint8_t age) const { return age >= 1 && age <= kSize && age <= count_; }
  /// The time added `age` adds ago; holds(age) must be true.
  uint64_t at(uint8_t age) const { return ring_[(count_ - age) % kSize]; }

  /// Adds `t` without indexing it, for readers, which never search: a later
  /// see() may miss it, never misreport it.
  void add(uint64_t t) { ring_[count_++ % kSize] = t; }
  void clear() {
    count_ = 0;
    latest_.fill(0);
  }

private:
  static size_t slot(uint64_t t) { return (t * 0x9E3779B97F4A7C15ull) >> 56; }
  std::array<uint64_t, kSize> ring_{};
  std::array<uint64_t, 256> latest_{}; ///< by hash of a time: its add number (1-based)
  uint64_t count_ = 0;
};

} // namespace prof::report
