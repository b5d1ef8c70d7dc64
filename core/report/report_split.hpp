// Splits one report of a launcher's ranks (`prof -o r%q{RANK} mpirun ...`)
// into one report per rank, as if each rank had run under its own prof.
#pragma once

#include "core/report/report_error.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prof::report {

/// One report split_by_rank wrote.
struct SplitOutput {
  int rank = -1; ///< -1: what belongs to no rank (the launcher)
  std::string path;
  uint64_t events = 0;
};

/// Writes one report per launcher rank found in `input`: a process whose
/// track name ends with its rank (" (rank 3)", as the agent names a
/// launcher's ranks), its threads and everything under them, and the drops
/// of its threads' rings go to path_for(rank); processes of no rank (the
/// launcher itself) and drops of no thread go to path_for(-1), which may be
/// `input` itself. Tracks of no process (CPUs, devices, counters of the
/// machine) go to every report. Strings, stacks and clock domains are
/// copied whole, argument sets as the events use them.
///
/// Returns nothing, and writes nothing, when no process has a rank. Each
/// report is written under a temporary name and renamed once whole; an
/// existing one (other than `input`) is refused unless `force_overwrite`.
/// Throws ReportError naming the file that cannot be read or written.
std::vector<SplitOutput> split_by_rank(const std::string &input,
                                       const std::function<std::string(int)> &path_for,
                                       bool force_overwrite);

} // namespace prof::report
