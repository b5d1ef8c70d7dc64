// The profiled process tree: who is in it at one moment, and how much CPU
// time it used between two moments.
#ifndef PROF_PLUGINS_CPU_UTIL_PROCESS_TREE_HPP
#define PROF_PLUGINS_CPU_UTIL_PROCESS_TREE_HPP

#include "proc_fs.hpp"
#include "proc_pid.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace prof::cpu_util {

/// The root and its live descendants (zombies included), as read once.
struct ProcessTreeSnapshot {
  std::vector<ProcessStat> members; ///< the root first when it is alive
};

/// Reads the tree below `root` through task/TID/children, or by scanning
/// every pid's parent when the kernel lacks those files. Processes that
/// vanish while it reads are left out.
ProcessTreeSnapshot read_process_tree(const ProcFs &fs, int root);

/// Builds the tree below `root` from a table of processes (any order).
ProcessTreeSnapshot tree_from_table(const std::vector<ProcessStat> &table, int root);

/// CPU ticks a process tree used between consecutive snapshots.
///
/// Each member counts utime+stime+cutime+cstime. When a member exits and a
/// member parent reaps it, its whole time moves into the parent's cutime, so
/// the sum stays continuous and nothing counts twice. When a member leaves
/// without a member parent to reap it (the root, or an orphan reparented to
/// init), its last seen time is added back so the sum does not drop; only
/// the slice it ran since the last snapshot is lost.
class ProcessTreeCpuMeter {
public:
  /// Ticks used since the previous call; nullopt on the first call after
  /// construction or reset().
  std::optional<uint64_t> update(const ProcessTreeSnapshot &snapshot);
  void reset();

private:
  struct Seen {
    uint64_t start_time;
    int ppid;
    uint64_t ticks;
  };
  std::unordered_map<int, Seen> previous_;
  uint64_t previous_sum_ = 0;
  int64_t shortfall_ = 0; ///< a drop of the sum not yet paid off (<= 0)
  int shortfall_age_ = 0; ///< snapshots it has been carried
  bool primed_ = false;
};

} // namespace prof::cpu_util

#endif
