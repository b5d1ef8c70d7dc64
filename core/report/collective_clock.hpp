// How two captures' clocks stand, read from the collective operations they
// share: every rank leaves a blocking collective operation within its last
// arrival's latency of the others, so the difference of two ranks' ends is
// the difference of their clocks, give or take that latency. A rank that
// arrives late moves its begin, not its end, so lateness is not mistaken
// for a clock offset.
#pragma once

#include "core/report/report_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace prof::report {

/// One input's collective operations on its own clock, by communicator and
/// sequence: the earliest begin and the latest end of its calls (an input
/// of several processes of one host has one clock).
struct CollectiveTimes {
  struct Call {
    uint64_t begin = UINT64_MAX;
    uint64_t end = 0;
  };
  std::unordered_map<std::string, Call> calls; ///< "COMMUNICATOR\tSEQUENCE"
};

/// The communication slices of `reader` with a `communicator` (text) and a
/// `sequence` (integer) argument, from its first event chunks until they
/// hold `enough` operations (all of them by default). Reads no event when
/// its strings hold neither key.
CollectiveTimes collective_times(const ReportReader &reader, size_t enough = SIZE_MAX);

/// An input's clock against a reference's, fitted on their shared
/// operations: reference time = input time + offset + drift x (input time - origin).
struct ClockFit {
  int64_t offset = 0;
  double drift = 0;    ///< ns gained per ns; 0 unless the data show one
  uint64_t origin = 0; ///< the input's time of its first shared operation
  uint64_t error = 0;  ///< the 90th percentile of the ends' distance from the fit, in ns
  size_t shared = 0;   ///< the operations both took part in

  int64_t at(uint64_t ts) const;
};

/// Shared operations a fit needs.
inline constexpr size_t kMinSharedOperations = 3;

/// The fit of `input` against `reference`, or nullopt when they share fewer
/// than kMinSharedOperations operations.
std::optional<ClockFit> fit_clock(const CollectiveTimes &reference, const CollectiveTimes &input);

/// The share of the operations `fit` was made on whose calls overlap in
/// time once `input` is moved by `fit`: a blocking operation's always do,
/// so a share far below 1 says the clocks disagree by more than the
/// operations last.
double overlapping_share(const CollectiveTimes &reference, const CollectiveTimes &input,
                         const ClockFit &fit);

} // namespace prof::report
