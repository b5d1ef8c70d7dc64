// A device's clock: ticks = offset + (host_ns - t0) x hz/1e9 x (1 + drift_ppm x 1e-6).
// Every record's timestamps are in these ticks.
#ifndef PROF_GCUSIM_DEVICE_CLOCK_HPP
#define PROF_GCUSIM_DEVICE_CLOCK_HPP

#include <cstdint>

namespace prof::gcusim {

class DeviceClock {
public:
  DeviceClock(uint64_t t0_ns, uint64_t offset_ticks, double hz, double drift_ppm)
      : t0_ns_(t0_ns), offset_(offset_ticks), hz_(hz),
        ticks_per_ns_(hz / 1e9 * (1.0 + drift_ppm * 1e-6)) {}

  /// The device clock at host time `host_ns` (CLOCK_MONOTONIC).
  uint64_t ticks_at(uint64_t host_ns) const noexcept {
    double elapsed = static_cast<double>(static_cast<int64_t>(host_ns - t0_ns_));
    return offset_ + static_cast<int64_t>(elapsed * ticks_per_ns_);
  }
  /// Ticks the clock advances in `ns` host nanoseconds.
  uint64_t ticks_in(uint64_t ns) const noexcept {
    return static_cast<uint64_t>(static_cast<double>(ns) * ticks_per_ns_);
  }
  /// Nominal ticks per second.
  double frequency() const noexcept { return hz_; }
  /// Reads the device clock and the host clock together: the host time is the
  /// middle of two host reads around the device read, as a driver would do it.
  void read_pair(uint64_t &host_ns, uint64_t &device_ticks) const noexcept;

private:
  uint64_t t0_ns_;
  uint64_t offset_;
  double hz_;
  double ticks_per_ns_;
};

} // namespace prof::gcusim

#endif
