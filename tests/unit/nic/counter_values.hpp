// Checks on the values a counter track received, shared by the plugin tests.
#ifndef PROF_TESTS_NIC_COUNTER_VALUES_HPP
#define PROF_TESTS_NIC_COUNTER_VALUES_HPP

#include <prof/testing/fake_source_host.hpp>

#include <algorithm>
#include <vector>

namespace prof::testing {

/// Bytes (or events) that rates account for from the first value on: the
/// sum of rate x interval over the later values.
inline double integrate(const std::vector<FakeSourceHost::Counter> &values) {
  double total = 0;
  for (size_t i = 1; i < values.size(); ++i)
    total += values[i].value * static_cast<double>(values[i].ts - values[i - 1].ts) / 1e9;
  return total;
}

/// The median of the non-zero values, 0 when there are none. Bytes and
/// packets are separate files, read one after the other: a sample taken
/// while they change can pair new bytes with old packets, so a single
/// average-size value may be off, and the typical one is checked.
inline double median_nonzero(const std::vector<FakeSourceHost::Counter> &values) {
  std::vector<double> found;
  for (const auto &counter : values)
    if (counter.value != 0.0) found.push_back(counter.value);
  if (found.empty()) return 0;
  std::sort(found.begin(), found.end());
  return found[found.size() / 2];
}

} // namespace prof::testing

#endif
