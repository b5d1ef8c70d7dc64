#include "system_sampler.hpp"

#include "meminfo.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace prof::cpu_util {

Sample SystemSampler::take(uint64_t now_ns) {
  Sample sample;
  if (options_.cpu) take_cpu(sample, now_ns);
  if (options_.target_pid > 0) take_tree(sample, now_ns);
  if (options_.memory) take_memory(sample);
  return sample;
}

void SystemSampler::reset() {
  cpu_history_.clear();
  tree_history_.clear();
  tree_meter_.reset();
}

template <class T>
const std::pair<uint64_t, T> *
SystemSampler::rate_base(std::deque<std::pair<uint64_t, T>> &history, uint64_t now_ns) {
  // The newest entry at least a window old, else the oldest one; older
  // entries are no longer needed.
  while (history.size() > 2 && history[1].first + kRateWindowNs <= now_ns) history.pop_front();
  if (history.size() < 2) return nullptr; // only the entry just added
  return &history.front();
}

void SystemSampler::take_cpu(Sample &sample, uint64_t now_ns) {
  const auto text = fs_.read("stat");
  auto times = text ? parse_proc_stat(*text) : std::nullopt;
  if (!times) return;
  cpu_history_.emplace_back(now_ns, std::move(*times));
  const CpuTimes &now = cpu_history_.back().second;
  if (const auto *base = rate_base(cpu_history_, now_ns)) {
    const CpuTimes &previous = base->second;
    sample.cpu_total_percent = cpu_utilization(previous.all, now.all);
    std::unordered_map<int, const CpuTicks *> before;
    for (const auto &[index, ticks] : previous.per_cpu)
      before[index] = &ticks;
    for (const auto &[index, ticks] : now.per_cpu) {
      // A CPU that just came online has no previous read yet.
      if (auto found = before.find(index); found != before.end())
        sample.cpu_percent.emplace_back(index, cpu_utilization(*found->second, ticks));
    }
  }
}

void SystemSampler::take_tree(Sample &sample, uint64_t now_ns) {
  const ProcessTreeSnapshot tree = read_process_tree(fs_, options_.target_pid);
  if (options_.cpu) {
    const auto ticks = tree_meter_.update(tree);
    if (ticks) tree_ticks_ += *ticks;
    tree_history_.emplace_back(now_ns, tree_ticks_);
    const auto *base = rate_base(tree_history_, now_ns);
    if (ticks && base && !tree.members.empty() && now_ns > base->first) {
      const double seconds = static_cast<double>(now_ns - base->first) / 1e9;
      sample.tree_cpu_percent = 100.0 * static_cast<double>(tree_ticks_ - base->second) /
                                static_cast<double>(options_.ticks_per_second) / seconds;
    }
  }
  if (!options_.memory || tree.members.empty()) return;
  // Held before exec, the application's memory figures are prof's.
  if (!target_on_its_own_) {
    if (fs_.shares_our_memory(options_.target_pid)) return;
    target_on_its_own_ = true;
  }

  // stat's rss field is the count VmRSS shows, in pages: no extra status read per member.
  uint64_t rss = 0;
  for (const ProcessStat &member : tree.members)
    rss += member.rss_pages * static_cast<uint64_t>(options_.page_size);
  tree_rss_peak_ = std::max(tree_rss_peak_, rss);
  sample.tree_rss_bytes = static_cast<double>(rss);
  sample.tree_rss_peak_bytes = static_cast<double>(tree_rss_peak_);
  if (tree.members.front().pid == options_.target_pid) {
    const auto status = fs_.read(std::to_string(options_.target_pid) + "/status");
    if (status) {
      if (const auto hwm = parse_pid_status(*status).hwm_bytes)
        sample.root_rss_hwm_bytes = static_cast<double>(*hwm);
    }
  }
}

void SystemSampler::take_memory(Sample &sample) {
  const auto text = fs_.read("meminfo");
  const auto memory = text ? parse_meminfo(*text) : std::nullopt;
  if (!memory) return;
  sample.memory_used_bytes = static_cast<double>(memory->used_bytes());
  sample.memory_used_percent = memory->used_percent();
}

} // namespace prof::cpu_util
