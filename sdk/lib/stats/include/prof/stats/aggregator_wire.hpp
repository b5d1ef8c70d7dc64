// A StatsAggregator as bytes, for `prof stats` spread over MPI ranks: each
// rank scans its share of the reports into an aggregator whose ids every
// rank shares (report::MergeInput::write_events), and rank 0 adds the
// others' to its own. Bytes written over another catalog (a rank's summary)
// load with their ids and times translated (WireIds).
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace prof::stats {

/// How the ids and times in saved bytes become the receiver's: the identity
/// when both share one catalog and clock; a rank's summary loaded into an
/// aggregator over a combined catalog maps each id and moves each time.
struct WireIds {
  virtual ~WireIds() = default;
  virtual prof_string_id string(prof_string_id id) const { return id; }
  virtual prof_track_id track(prof_track_id id) const { return id; }
  virtual prof_stack_id stack(prof_stack_id id) const { return id; }
  virtual prof_args_id args(prof_args_id id) const { return id; }
  /// A time (a begin, an end, a sample's time; never a duration).
  virtual uint64_t time(uint64_t ts) const { return ts; }
};

struct AggregatorWire {
  /// Everything `aggregator` has seen (its timelines are folded first).
  static std::vector<uint8_t> save(StatsAggregator &aggregator);
  /// Adds what `bytes` holds, as StatsAggregator::merge would; false, and
  /// `into` unchanged, when the bytes are not what save() writes.
  static bool load(std::span<const uint8_t> bytes, StatsAggregator &into);
  /// As load(), each id and time read through `ids`.
  static bool load(std::span<const uint8_t> bytes, StatsAggregator &into, const WireIds &ids);
};

} // namespace prof::stats
