#include "process_tree.hpp"

#include <deque>
#include <string>
#include <unordered_set>

namespace prof::cpu_util {
namespace {

std::optional<ProcessStat> read_stat(const ProcFs &fs, int pid) {
  const auto text = fs.read(std::to_string(pid) + "/stat");
  if (!text) return std::nullopt;
  return parse_pid_stat(*text);
}

std::optional<ProcessTreeSnapshot> walk_children_files(const ProcFs &fs, int root) {
  ProcessTreeSnapshot snapshot;
  std::unordered_set<int> visited{root};
  std::deque<int> pending{root};
  while (!pending.empty()) {
    const int pid = pending.front();
    pending.pop_front();
    auto stat = read_stat(fs, pid);
    if (!stat) continue; // gone: its children (if any) were reparented away
    auto children = fs.children(pid);
    if (!children) return std::nullopt;
    snapshot.members.push_back(std::move(*stat));
    for (int child : *children) {
      if (visited.insert(child).second) pending.push_back(child);
    }
  }
  return snapshot;
}

ProcessTreeSnapshot scan_all_pids(const ProcFs &fs, int root) {
  std::vector<ProcessStat> table;
  for (int pid : fs.pids()) {
    if (auto stat = read_stat(fs, pid)) table.push_back(std::move(*stat));
  }
  return tree_from_table(table, root);
}

} // namespace

ProcessTreeSnapshot tree_from_table(const std::vector<ProcessStat> &table, int root) {
  std::unordered_map<int, std::vector<size_t>> children_of;
  std::optional<size_t> root_index;
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].pid == root)
      root_index = i;
    else
      children_of[table[i].ppid].push_back(i);
  }
  ProcessTreeSnapshot snapshot;
  if (!root_index) return snapshot;
  std::unordered_set<int> visited{root};
  std::deque<size_t> pending{*root_index};
  while (!pending.empty()) {
    const ProcessStat &member = table[pending.front()];
    pending.pop_front();
    snapshot.members.push_back(member);
    auto found = children_of.find(member.pid);
    if (found == children_of.end()) continue;
    for (size_t child : found->second) {
      if (visited.insert(table[child].pid).second) pending.push_back(child);
    }
  }
  return snapshot;
}

ProcessTreeSnapshot read_process_tree(const ProcFs &fs, int root) {
  if (auto snapshot = walk_children_files(fs, root)) return std::move(*snapshot);
  return scan_all_pids(fs, root);
}

std::optional<uint64_t> ProcessTreeCpuMeter::update(const ProcessTreeSnapshot &snapshot) {
  std::unordered_map<int, Seen> current;
  std::unordered_set<int> can_reap; // live members; a zombie reaps nobody
  uint64_t sum = 0;
  for (const ProcessStat &member : snapshot.members) {
    const uint64_t ticks = member.own_ticks() + member.child_ticks();
    current[member.pid] = Seen{member.start_time, member.ppid, ticks};
    if (member.state != 'Z' && member.state != 'X') can_reap.insert(member.pid);
    sum += ticks;
  }

  std::optional<uint64_t> used;
  if (primed_) {
    int64_t delta = static_cast<int64_t>(sum) - static_cast<int64_t>(previous_sum_);
    for (const auto &[pid, seen] : previous_) {
      auto now = current.find(pid);
      const bool gone = now == current.end() || now->second.start_time != seen.start_time;
      if (gone && !can_reap.contains(seen.ppid)) delta += static_cast<int64_t>(seen.ticks);
    }
    // Reads of parent and child are not atomic: a child reaped between them
    // is missing from one snapshot (the sum drops) and back in its parent's
    // cutime in the next. The drop is carried and paid off by what follows,
    // so the child counts once; a drop still unpaid after two more
    // snapshots was no race, and is forgotten.
    delta += shortfall_;
    if (delta >= 0) {
      used = static_cast<uint64_t>(delta);
      shortfall_ = 0;
    } else {
      used = 0;
      shortfall_ = shortfall_age_ < 2 ? delta : 0;
    }
    shortfall_age_ = shortfall_ == 0 ? 0 : shortfall_age_ + 1;
  }
  previous_ = std::move(current);
  previous_sum_ = sum;
  primed_ = true;
  return used;
}

void ProcessTreeCpuMeter::reset() {
  previous_.clear();
  previous_sum_ = 0;
  shortfall_ = 0;
  shortfall_age_ = 0;
  primed_ = false;
}

} // namespace prof::cpu_util
