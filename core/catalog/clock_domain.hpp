// Clock domains: clocks other than the session clock (the TSC, a device's
// clock), converted to session nanoseconds through calibration pairs with
// offset and drift.
#pragma once

#include <prof/event.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace prof::core {

/// One clock and what is known of its relation to the session clock.
class ClockDomain {
public:
  ClockDomain(std::string name, double frequency_hz);
  /// A clock whose nominal rate is measured by `measured_hz`, called only
  /// when the rate is first needed.
  ClockDomain(std::string name, double (*measured_hz)());

  /// Records that `ticks` on this clock happened at `session_ns`. Past
  /// kMostPairs, every other pair of the older half goes (the first and the
  /// newest half stay): a capture of days keeps kMostPairs at most, dense
  /// where they are recent, and a smooth drift is followed as closely.
  void add_calibration(uint64_t ticks, uint64_t session_ns);
  static constexpr size_t kMostPairs = 4096;
  /// Session nanoseconds of `ticks`: interpolated between the two surrounding
  /// calibration pairs (drift), extrapolated from the nearest segment outside
  /// them, from the nominal frequency and one pair (offset) when only one is
  /// known, and from the frequency alone when none is.
  uint64_t to_session_ns(uint64_t ticks) const;

  const std::string &name() const { return name_; }
  double frequency_hz() const;
  /// Calibration pairs (ticks, session_ns) sorted by ticks.
  std::vector<std::pair<uint64_t, uint64_t>> calibration() const;

private:
  std::string name_;
  double frequency_hz_;
  double (*measured_hz_)() = nullptr;
  mutable std::mutex mutex_;
  std::vector<std::pair<uint64_t, uint64_t>> pairs_; // sorted by ticks
};

/// Every clock domain of a session. Id 0 is the session clock itself,
/// id 1 the TSC; plugins register more.
class ClockDomainRegistry {
public:
  ClockDomainRegistry();
  ClockDomainRegistry(const ClockDomainRegistry &) = delete;
  ClockDomainRegistry &operator=(const ClockDomainRegistry &) = delete;

  /// Registers a domain; returns its id, or 0 for an empty name or a
  /// frequency that is not positive.
  prof_clock_id add(const std::string &name, double frequency_hz);
  /// The domain with `id`, nullptr for the session clock or an unknown id.
  ClockDomain *find(prof_clock_id id);
  const ClockDomain *find(prof_clock_id id) const;
  /// Converts `ticks` of domain `id` to session ns (identity for id 0 and unknown ids).
  uint64_t to_session_ns(prof_clock_id id, uint64_t ticks) const;
  /// Adds a TSC calibration pair taken now.
  void calibrate_tsc();
  size_t size() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<ClockDomain>> domains_; // index = id; [0] is null
};

} // namespace prof::core
