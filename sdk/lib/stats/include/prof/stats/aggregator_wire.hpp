// A StatsAggregator as bytes, for `prof stats` spread over MPI ranks: each
// rank scans its share of the reports into an aggregator whose ids every
// rank shares (report::MergeInput::write_events), and rank 0 adds the
// others' to its own.
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace prof::stats {

struct AggregatorWire {
  /// Everything `aggregator` has seen (its timelines are folded first).
  static std::vector<uint8_t> save(StatsAggregator &aggregator);
  /// Adds what `bytes` holds, as StatsAggregator::merge would; false, and
  /// `into` unchanged, when the bytes are not what save() writes.
  static bool load(std::span<const uint8_t> bytes, StatsAggregator &into);
};

} // namespace prof::stats
