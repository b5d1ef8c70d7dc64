#include "core/clock_domain.hpp"

#include "core/session_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

namespace prof::core {

ClockDomain::ClockDomain(std::string name, double frequency_hz)
    : name_(std::move(name)), frequency_hz_(frequency_hz) {}

void ClockDomain::add_calibration(uint64_t ticks, uint64_t session_ns) {
  std::lock_guard lock(mutex_);
  auto at = std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(ticks, uint64_t{0}));
  if (at != pairs_.end() && at->first == ticks) {
    at->second = session_ns;
    return;
  }
  pairs_.insert(at, {ticks, session_ns});
}

std::vector<std::pair<uint64_t, uint64_t>> ClockDomain::calibration() const {
  std::lock_guard lock(mutex_);
  return pairs_;
}

namespace {
// Maps `ticks` through the line that passes (t0, n0) with `ns_per_tick`,
// in long double so 64-bit tick counts keep their precision.
uint64_t along_line(uint64_t ticks, uint64_t t0, uint64_t n0, long double ns_per_tick) {
  long double ns = static_cast<long double>(n0) +
                   (static_cast<long double>(ticks) - static_cast<long double>(t0)) * ns_per_tick;
  if (ns <= 0) return 0;
  if (ns >= 18446744073709551615.0L) return UINT64_MAX;
  return static_cast<uint64_t>(std::llround(ns));
}
} // namespace

uint64_t ClockDomain::to_session_ns(uint64_t ticks) const {
  const long double nominal = 1e9L / static_cast<long double>(frequency_hz_);
  std::lock_guard lock(mutex_);
  if (pairs_.empty()) return along_line(ticks, 0, 0, nominal);
  if (pairs_.size() == 1) return along_line(ticks, pairs_[0].first, pairs_[0].second, nominal);
  // Segment [lo, hi] around ticks; outside the known range use the edge segment.
  auto hi = std::upper_bound(pairs_.begin(), pairs_.end(), std::make_pair(ticks, UINT64_MAX));
  if (hi == pairs_.begin()) ++hi;
  if (hi == pairs_.end()) --hi;
  auto lo = hi - 1;
  long double slope = (static_cast<long double>(hi->second) - static_cast<long double>(lo->second)) /
                      (static_cast<long double>(hi->first) - static_cast<long double>(lo->first));
  return along_line(ticks, lo->first, lo->second, slope);
}

namespace {
// Estimates the TSC frequency by reading it against the session clock over
// a short interval; done once per process.
double measure_tsc_hz() {
  if (!has_tsc()) return 1e9;
  uint64_t t0 = tsc_now(), n0 = session_now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(2)); // later pairs correct the rate
  uint64_t t1 = tsc_now(), n1 = session_now_ns();
  return static_cast<double>(t1 - t0) * 1e9 / static_cast<double>(n1 - n0);
}

double tsc_hz() {
  static const double hz = measure_tsc_hz();
  return hz;
}
} // namespace

ClockDomainRegistry::ClockDomainRegistry() {
  domains_.emplace_back(nullptr);
  domains_.emplace_back(std::make_unique<ClockDomain>("tsc", tsc_hz()));
  calibrate_tsc();
}

prof_clock_id ClockDomainRegistry::add(const std::string &name, double frequency_hz) {
  if (name.empty() || !(frequency_hz > 0) || !std::isfinite(frequency_hz)) return 0;
  std::lock_guard lock(mutex_);
  domains_.push_back(std::make_unique<ClockDomain>(name, frequency_hz));
  return static_cast<prof_clock_id>(domains_.size() - 1);
}

ClockDomain *ClockDomainRegistry::find(prof_clock_id id) {
  std::lock_guard lock(mutex_);
  return id < domains_.size() ? domains_[id].get() : nullptr;
}

const ClockDomain *ClockDomainRegistry::find(prof_clock_id id) const {
  std::lock_guard lock(mutex_);
  return id < domains_.size() ? domains_[id].get() : nullptr;
}

uint64_t ClockDomainRegistry::to_session_ns(prof_clock_id id, uint64_t ticks) const {
  const ClockDomain *domain = find(id);
  return domain ? domain->to_session_ns(ticks) : ticks;
}

void ClockDomainRegistry::calibrate_tsc() {
  // Bracket the TSC read between two clock reads and take the midpoint.
  uint64_t before = session_now_ns();
  uint64_t ticks = tsc_now();
  uint64_t after = session_now_ns();
  find(PROF_CLOCK_TSC)->add_calibration(ticks, before + (after - before) / 2);
}

size_t ClockDomainRegistry::size() const {
  std::lock_guard lock(mutex_);
  return domains_.size();
}

} // namespace prof::core
