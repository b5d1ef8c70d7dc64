// Splits one report of several processes into one report per rank of a
// launcher (`prof -o r%q{RANK} mpirun ...`) or per process attached to
// (`prof attach --all -o r%q{RANK}`), as if each had run under its own prof.
#pragma once

#include "core/report/report_error.hpp"
#include "core/report/report_model.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace prof::report {

/// One report a split wrote.
struct SplitOutput {
  int group = -1; ///< the rank, or the process's group; -1: what belongs to none
  std::string path;
  uint64_t events = 0;
};

/// How a split groups: the group (>= 0) of a process track, -1 for none.
using ProcessGroupOf = std::function<int(const TrackRecord &process)>;
/// Fills the header of group's report (a copy of the input's, its pids set).
using DescribeGroup = std::function<void(int group, Header &header)>;

/// The time a group's report keeps: events with begin <= ts < end.
struct TimeSpan {
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;
};
/// By group; a group not listed keeps everything.
using GroupSpans = std::map<int, TimeSpan>;

/// Writes one report per group of processes found in `input`: each process
/// track, its threads and everything under them, and the drops of its
/// threads' rings go to path_for(group_of(process)); processes of no group
/// and drops of no thread go to path_for(-1), which may be `input` itself,
/// written when `keep_rest` or when something belongs there (a thread's
/// drops with no track go to the first report when there is no such one). A
/// track a process owns (a device's stream or queue whose pid names a process
/// of `input`, and everything under it) goes with that process. Tracks of no
/// process (CPUs, devices, counters of the machine) go to every report,
/// marked PROF_TRACK_SHARED there, so that a merge of the reports keeps one
/// copy of them.
/// Strings, stacks and clock domains are copied whole, argument sets as the
/// events use them. A group with a span in `spans` keeps only the events of
/// that time (its own and those of tracks of no process), and its report's
/// start and end become the span's.
///
/// Returns nothing, and writes nothing, when no process has a group. Each
/// report is written under a temporary name and renamed once whole; an
/// existing one (other than `input`) is refused unless `force_overwrite`.
/// Throws ReportError naming the file that cannot be read or written.
std::vector<SplitOutput> split_report(const std::string &input, const ProcessGroupOf &group_of,
                                      const std::function<std::string(int)> &path_for,
                                      const DescribeGroup &describe, bool keep_rest,
                                      bool force_overwrite, const GroupSpans &spans = {});

/// split_report by launcher rank: a process whose track name ends with its
/// rank (" (rank 3)", as the agent names a launcher's ranks) goes to
/// path_for(rank), with that rank in its header; the launcher itself to
/// path_for(-1), always written.
std::vector<SplitOutput> split_by_rank(const std::string &input,
                                       const std::function<std::string(int)> &path_for,
                                       bool force_overwrite);

} // namespace prof::report
