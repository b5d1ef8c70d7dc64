// What the HTML page of `prof stats --format html` draws beside its tables,
// from the collective operations matched across ranks: how late each rank
// came to each operation, and each rank's time in communication by name;
// and from the training steps, each rank's time in each step.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/step_times.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

struct RankCharts {
  /// Processes (in a merged report, ranks), in natural order: the heat map's rows.
  std::vector<std::string> ranks;
  /// Operations matched in two ranks or more, by communicator then
  /// sequence ("MPI_Allreduce #6 on MPI_COMM_WORLD"): its columns.
  std::vector<std::string> operations;
  /// lateness[rank][operation]: ns after the first rank arrived; -1 when
  /// the rank was not in it.
  std::vector<std::vector<int64_t>> lateness;
  /// Operations left out past the limit (the first ones are kept).
  size_t operations_left_out = 0;
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
  /// Each rank's time in each step (with ranks of their own).
  StepTimes steps;
};

/// The charts of `aggregator`'s collective calls and communication (scan
/// it with StatsScope::collectives and ::communication), at most
/// `max_operations` columns, and of its steps (StatsScope::steps).
RankCharts rank_charts(const StatsAggregator &aggregator, const ExportHost &host,
                       size_t max_operations = 400);

} // namespace prof::stats
