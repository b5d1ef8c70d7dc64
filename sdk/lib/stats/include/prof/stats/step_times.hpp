// Each rank's time in each training step: the slices of kind
// PROF_CATEGORY_ANNOTATION with a `step` argument (event.h), whatever their
// name. What `prof stats --report steps` tabulates and its HTML chart draws.
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace prof::stats {

/// Step times by rank. In a merged report, or a folder of rank reports, each
/// process is a rank; processes of one label are one rank.
struct StepTimes {
  /// Process labels (process_label()), in natural order.
  std::vector<std::string> ranks;
  struct Step {
    uint64_t number = 0;
    /// (index in `ranks`, ns) for each rank that ran the step, in rank
    /// order. A rank's time is from the earliest begin of its slices with
    /// this step number to their latest end.
    std::vector<std::pair<size_t, uint64_t>> times;
  };
  /// Every step some rank ran, by number.
  std::vector<Step> steps;
};

/// The step times of `aggregator` (scanned with StatsScope::steps).
StepTimes step_times(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
