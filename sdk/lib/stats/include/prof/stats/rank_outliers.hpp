// The ranks and nodes of a many-rank job that differ from the rest: by step
// time, arrival lateness at collective operations, time in communication
// calls, operator time, kernel (device work) time and memory peak. Each
// measure compares every rank with the typical one robustly (median and
// median absolute deviation, with a floor so that ordinary jitter never
// counts); ranks of one node that differ together are one finding. What
// `prof stats --report outliers` prints, the HTML page draws and
// `prof merge --ranks outliers` keeps.
#pragma once

#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prof::stats {

/// What a rank is compared by.
enum class OutlierMeasure {
  step_time,     ///< its time in training steps (annotation slices with a `step` argument)
  lateness,      ///< its arrival at collective operations after the operation's median rank
  communication, ///< its time in communication calls of one name on a communicator
  operator_time, ///< its time in framework operators
  kernel_time,   ///< its devices' time in kernels
  memory_peak,   ///< the peak of its devices' memory use and of its heap
};

/// "step time", "lateness", ...: how findings name a measure.
const char *measure_name(OutlierMeasure measure);

/// One process of the job (in a merged report or a folder of rank reports,
/// one rank) and what it measured.
struct RankEntry {
  prof_track_id process = 0;
  int rank = -1;     ///< the launcher's rank, -1 when its report named none
  std::string node;  ///< its host ("node007"), "" when not known
  std::string label; ///< "rank 56" (or the process label when it has no rank)
  /// Per measure (indexed by OutlierMeasure), the rank's value: for steps
  /// and lateness the median of its difference from each step's or
  /// operation's median rank (ns), its time in communication calls, its
  /// totals of operator and kernel time (ns), its memory peak (bytes);
  /// nullopt when it has none of that kind.
  std::vector<std::optional<double>> values;
};

/// Ranks that differ from the rest in one measure: a node's ranks together,
/// or ranks apart.
struct OutlierFinding {
  OutlierMeasure measure = OutlierMeasure::step_time;
  /// The node when every rank of it (at least 3 in 4 of its ranks, and two
  /// or more) differs in this measure; "" for ranks apart.
  std::string node;
  std::vector<size_t> ranks; ///< indices in RankOutliers::ranks, in rank order
  /// What in: the operation or call name ("all_reduce", "send"); "" for
  /// measures of the whole rank.
  std::string what;
  /// For measures over items (steps, operations): in how many of them the
  /// ranks differed (the most of any of them), and how many there were.
  uint64_t items = 0, of_items = 0;
  /// The typical rank's value: the median over ranks; for steps the median
  /// step time, for lateness how long after the first rank the median one
  /// arrives.
  double typical = 0;
  /// How far the ranks were from it: the median of their excess (ns or
  /// bytes), over the items they differed in for measures over items.
  double excess = 0;
  /// The threshold the excess had to pass: the larger of the robust spread
  /// (6 x 1.4826 x the median absolute deviation) and the measure's floor.
  double threshold = 0;
  /// One line: "node007: ranks 56-63 late to 40 of 48 all_reduce by 12.1 ms median".
  std::string text;
};

struct RankOutliers {
  /// Every rank, in rank order (then label order for those without one).
  std::vector<RankEntry> ranks;
  /// What differs, the largest excess first within each measure, measures
  /// in OutlierMeasure's order.
  std::vector<OutlierFinding> findings;
  /// The rank closest to the median on every measure, among those no
  /// finding names; nullopt when there are fewer than 3 ranks.
  std::optional<size_t> typical;
  /// Indices of the ranks some finding names, in rank order.
  std::vector<size_t> outlier_ranks() const;
};

/// Turns on what find_rank_outliers reads in a scan: steps, collectives,
/// communication and the per-process totals.
void rank_outliers_scope(StatsScope &scope);

/// The outliers of `aggregator` (scanned with rank_outliers_scope()).
/// Nothing is found among fewer than 3 ranks.
RankOutliers find_rank_outliers(const StatsAggregator &aggregator, const ExportHost &host);

/// find_rank_outliers by arrival lateness alone (a scan with
/// StatsScope::collectives is enough): the stragglers report's groups.
RankOutliers find_late_ranks(const StatsAggregator &aggregator, const ExportHost &host);

/// "3, 17, 56-63": ranks as runs.
std::string rank_runs(const std::vector<int> &ranks);

} // namespace prof::stats
