// Running statistics kept per activity and per counter track (summary
// exporter and `prof stats`); partial ones from several threads merge.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace prof::stats {

/// Calls, total, min and max of slice durations (ns).
struct DurationStats {
  uint64_t calls = 0;
  uint64_t total = 0;
  uint64_t min = std::numeric_limits<uint64_t>::max();
  uint64_t max = 0;

  void add(uint64_t duration) {
    ++calls;
    total += duration;
    min = std::min(min, duration);
    max = std::max(max, duration);
  }
  void merge(const DurationStats &other) {
    calls += other.calls;
    total += other.total;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
  }
  /// Mean duration rounded to the nearest ns.
  uint64_t average() const { return calls == 0 ? 0 : (total + calls / 2) / calls; }
};

/// Samples, sum, min and max of a counter track's values.
struct CounterStats {
  uint64_t samples = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double value) {
    ++samples;
    sum += value;
    min = std::min(min, value);
    max = std::max(max, value);
  }
  void merge(const CounterStats &other) {
    samples += other.samples;
    sum += other.sum;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
  }
  double average() const { return samples == 0 ? 0 : sum / static_cast<double>(samples); }
};

} // namespace prof::stats
