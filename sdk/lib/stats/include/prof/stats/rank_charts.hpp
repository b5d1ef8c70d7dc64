// What the HTML page of `prof stats --format html` draws beside its tables,
// from the collective operations matched across ranks: how late each rank
// came to each operation (binned by sequence past what a page can show), the
// operations with the largest skew, each rank's time in communication by
// name; and from the training steps, each rank's time in each step. Sized by
// what a page can draw, not by the job: at 4096 ranks and 60,000 operations
// it holds a few megabytes.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/step_times.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

/// Columns of lateness a RankCharts holds at most: past this many
/// operations, consecutive ones (by communicator, in sequence) share one.
inline constexpr size_t kMaxOperationColumns = 160;

struct RankCharts {
  /// The ranks' labels, rank and node first ("rank 56 · node007";
  /// rank_node_label()), the ranks of a node together, in rank order:
  /// every chart's rows.
  std::vector<std::string> ranks;
  /// The full process label of each rank (process_label()), for tooltips;
  /// empty when the same as `ranks`.
  std::vector<std::string> full_labels;
  /// The node (host) of each rank, as `ranks`; empty when no rank says one.
  std::vector<std::string> nodes;
  /// The heat map's columns: an operation matched in two ranks or more, on
  /// a wide communicator (see narrow_operations)
  /// ("MPI_Allreduce #6 on MPI_COMM_WORLD"), or a run of
  /// `operations_per_column` consecutive ones ("AllReduce #7 to #9 on world").
  std::vector<std::string> operations;
  /// Operations in a column (the last may hold fewer).
  size_t operations_per_column = 1;
  /// Operations matched in all (0: as many as `operations`).
  size_t operation_count = 0;
  /// Operations left out of every chart, of the communicators whose widest
  /// operation has fewer than half the ranks of the widest of all
  /// (point-to-point pairs among many ranks), and how many communicators.
  size_t narrow_operations = 0, narrow_communicators = 0;
  /// lateness[rank][column]: ns after the first rank arrived, the latest of
  /// the column's operations; -1 when the rank was in none of them.
  std::vector<std::vector<int64_t>> lateness;
  /// Each rank's mean lateness over every operation it was in (not only
  /// the columns'), as `ranks`; -1 for a rank in none. Empty: not known.
  std::vector<int64_t> mean_lateness;
  /// An operation whose ranks arrived furthest apart.
  struct SkewedOperation {
    std::string name;
    uint64_t skew = 0;    ///< ns from the first rank's arrival to the last's
    size_t last_rank = 0; ///< index in `ranks`
    size_t ranks = 0;     ///< ranks in it
  };
  /// The operations with the largest skew, largest first (at most 10).
  std::vector<SkewedOperation> most_skewed;
  /// The ranks find_rank_outliers() names (indices in `ranks`), in the
  /// order of its findings: drawn on rows of their own.
  std::vector<size_t> outlier_ranks;
  /// The nodes whose ranks differ together.
  std::vector<std::string> outlier_nodes;
  /// Its findings' lines ("node005: ranks 40-47 late to 8 of 24 AllReduce
  /// by 3.00ms median"), for the top of the page.
  std::vector<std::string> outlier_findings;
  struct Part {
    std::string name;
    uint64_t ns = 0;
  };
  /// Per rank (as `ranks`), time in communication calls by name, of the
  /// names that are collective operations (have a `sequence` argument) on
  /// that rank: the steady state.
  std::vector<std::vector<Part>> communication;
  /// The same of the other names: set-up and teardown (MPI_Init's time
  /// would dwarf the rest), point-to-point calls.
  std::vector<std::vector<Part>> other_communication;
  /// Each rank's time in each step (with ranks of their own, labelled as
  /// `ranks`).
  StepTimes steps;
};

/// The charts of `aggregator`'s collective calls and communication (scan
/// it with StatsScope::collectives and ::communication), at most
/// `max_columns` columns, and of its steps (StatsScope::steps).
RankCharts rank_charts(const StatsAggregator &aggregator, const ExportHost &host,
                       size_t max_columns = kMaxOperationColumns);

} // namespace prof::stats
