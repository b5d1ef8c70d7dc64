#include "core/catalog/clock_domain.hpp"

#include "core/runtime/session_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

namespace prof::core {

ClockDomain::ClockDomain(std::string name, double frequency_hz)
    : name_(std::move(name)), frequency_hz_(frequency_hz) {}

ClockDomain::ClockDomain(std::string name, double (*measured_hz)())
    : name_(std::move(name)), frequency_hz_(0), measured_hz_(measured_hz) {}

double ClockDomain::frequency_hz() const { return measured_hz_ ? measured_hz_() : frequency_hz_; }

void ClockDomain::add_calibration(uint64_t ticks, uint64_t session_ns) {
  std::lock_guard lock(mutex_);
  auto at = std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(ticks, uint64_t{0}));
  if (at != pairs_.end() && at->first == ticks) {
    at->second = session_ns;
    return;
  }
  pairs_.insert(at, {ticks, session_ns});
  if (pairs_.size() <= kMostPairs) return;
  const size_t half = pairs_.size() / 2;
  size_t kept = 1;
  for (size_t i = 2; i < half; i += 2)
    pairs_[kept++] = pairs_[i];
  for (size_t i = half; i < pairs_.size(); ++i)
    pairs_[kept++] = pairs_[i];
  pairs_.resize(kept);
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
  std::unique_lock lock(mutex_);
  if (pairs_.size() < 2) {
    // Only here is the nominal rate needed; measuring it may take a moment.
    const auto pair = pairs_.empty() ? std::make_pair(uint64_t{0}, uint64_t{0}) : pairs_[0];
    lock.unlock();
    return along_line(ticks, pair.first, pair.second, 1e9L / frequency_hz());
  }
  // Segment [lo, hi] around ticks; outside the known range use the edge segment.
  auto hi = std::upper_bound(pairs_.begin(), pairs_.end(), std::make_pair(ticks, UINT64_MAX));
  if (hi == pairs_.begin()) ++hi;
  if (hi == pairs_.end()) --hi;
  auto lo = hi - 1;
  long double slope =
      (static_cast<long double>(hi->second) - static_cast<long double>(lo->second)) /
      (static_cast<long double>(hi->first) - static_cast<long double>(lo->first));
  return along_line(ticks, lo->first, lo->second, slope);
}

namespace {
// The TSC's rate is read against the session clock from the first registry
// made to the first time the rate is needed, at least 2 ms apart (later
// calibration pairs correct it): nobody waits for it at start-up, and in
// most captures it is first needed long after.
constexpr uint64_t kTscBaselineNs = 2'000'000;

struct TscBaseline {
  uint64_t ticks = tsc_now();
  uint64_t ns = session_now_ns();
};

const TscBaseline &tsc_baseline() {
  static const TscBaseline baseline;
  return baseline;
}

double measure_tsc_hz() {
  if (!has_tsc()) return 1e9;
  const TscBaseline &start = tsc_baseline();
  if (const uint64_t elapsed = session_now_ns() - start.ns; elapsed < kTscBaselineNs)
    std::this_thread::sleep_for(std::chrono::nanoseconds(kTscBaselineNs - elapsed));
  const TscBaseline end;
  return static_cast<double>(end.ticks - start.ticks) * 1e9 /
         static_cast<double>(end.ns - start.ns);
}

double tsc_hz() {
  static const double hz = measure_tsc_hz();
  return hz;
}
} // namespace

ClockDomainRegistry::ClockDomainRegistry() {
  tsc_baseline();
  domains_.emplace_back(nullptr);
  domains_.emplace_back(std::make_unique<ClockDomain>("tsc", &tsc_hz));
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
