// One rank's summary for `prof stats` over many ranks: what the cross-rank
// reports read of a report (its StatsAggregator over summary_scope() as
// AggregatorWire bytes, the strings, tracks, stacks and argument sets those
// bytes name) and what a merge plans with (header, clock measurements,
// drops). Made from a report once, kilobytes to a few MB, and combined
// with the others' (summary_combine.hpp) instead of merging the reports.
#pragma once

#include "core/report/report_merge.hpp"
#include "core/report/report_model.hpp"
#include <prof/stats/stats_aggregator.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace prof::tool {

/// Collective calls a summary keeps at most: beyond them it keeps one
/// operation in N (N a power of two), chosen by a hash of its sequence
/// number so that the same operations are kept on every rank and a
/// periodic pattern (every 10th late) is not missed whole.
inline constexpr size_t kSummaryMaxCollectiveCalls = 1024;

/// Steps (of each process) a summary keeps at most, chosen as collective
/// operations are, by a hash of the step number.
inline constexpr size_t kSummaryMaxSteps = 256;

/// What a summary left out of one kind of record: it kept one in `stride`.
struct Thinning {
  uint64_t stride = 1;
  uint64_t left_out = 0;
};

/// The reports that run from summaries, in known_reports() order.
const std::vector<std::string> &summary_reports();
/// Whether report `name` runs from summaries.
bool runs_from_summaries(const std::string &name);
/// What a summary's aggregator keeps: what summary_reports() need.
stats::StatsScope summary_scope();

struct RankSummary {
  /// The report it was made of, as it was then: a summary whose report has
  /// another size or modification time is stale.
  uint64_t report_size = 0;
  int64_t report_mtime_ns = 0;
  report::MergeInputFacts facts;                         ///< facts.path: the report's path
  std::array<uint64_t, PROF_DROP_CAUSE_COUNT> dropped{}; ///< by cause
  /// The strings the aggregator, tracks, stacks and sets name, by the report's ids.
  std::vector<std::pair<uint32_t, std::string>> strings;
  std::vector<report::TrackRecord> tracks; ///< every track of the report
  std::vector<report::StackRecord> stacks;
  std::vector<report::ArgsRecord> args;
  Thinning collectives;            ///< of collective calls, by operation (kept_operation())
  Thinning steps;                  ///< of steps, by step number
  std::vector<uint8_t> aggregator; ///< AggregatorWire bytes, by the report's ids
};

/// The summary's bytes (checksummed).
std::vector<uint8_t> encode_summary(const RankSummary &summary);
/// False when `bytes` are not a whole summary of this prof's version.
bool decode_summary(std::span<const uint8_t> bytes, RankSummary &summary);

/// Reads the report at `path` (its size and time `report_size`,
/// `report_mtime_ns`) and summarizes it, its scan spread over `threads`
/// (0: as many as TBB offers). Throws cli::UsageError naming a report that
/// cannot be read.
RankSummary make_summary(const std::string &path, uint64_t report_size, int64_t report_mtime_ns,
                         size_t threads = 0);

/// Whether the operation of `sequence` is kept when one in `stride` (a
/// power of two) is: those kept at 2N are kept at N.
bool kept_operation(uint64_t sequence, uint64_t stride);

/// Leaves out the collective calls of operations not kept at `stride`;
/// returns how many went.
size_t thin_collective_calls(stats::StatsAggregator &aggregator, uint64_t stride);
/// Leaves out the steps not kept at `stride`; returns how many went.
size_t thin_steps(stats::StatsAggregator &aggregator, uint64_t stride);

} // namespace prof::tool
