#include "counter_tracks.hpp"

namespace prof::cpu_util {

std::string per_cpu_track_name(int cpu) { return "cpu" + std::to_string(cpu) + " utilization"; }

void CounterTracks::emit(const Sample &sample, uint64_t ts) {
  namespace names = track_names;
  if (sample.cpu_total_percent)
    put(cpu_total_, names::kCpuTotal, cpu_group(), "%", -1, sample.cpu_total_percent, ts);
  for (const auto &[cpu, percent] : sample.cpu_percent) {
    const std::string name = per_cpu_track_name(cpu);
    put(per_cpu_[cpu], name.c_str(), cpu_group(), "%", cpu, percent, ts);
  }
  if (target_pid_ > 0) {
    const bool any = sample.tree_cpu_percent || sample.tree_rss_bytes ||
                     sample.root_rss_hwm_bytes || sample.tree_rss_peak_bytes;
    const prof_track_id owner = any ? process() : 0;
    put(tree_cpu_, names::kTreeCpu, owner, "%", -1, sample.tree_cpu_percent, ts);
    put(tree_rss_, names::kTreeRss, owner, "bytes", -1, sample.tree_rss_bytes, ts);
    put(root_hwm_, names::kRootHwm, owner, "bytes", -1, sample.root_rss_hwm_bytes, ts);
    put(tree_rss_peak_, names::kTreeRssPeak, owner, "bytes", -1, sample.tree_rss_peak_bytes, ts);
  }
  put(memory_used_, names::kMemoryUsed, 0, "bytes", -1, sample.memory_used_bytes, ts);
  put(memory_used_percent_, names::kMemoryUsedPercent, 0, "%", -1, sample.memory_used_percent, ts);
}

void CounterTracks::put(std::optional<prof_track_id> &slot, const char *name, prof_track_id parent,
                        const char *unit, int index, const std::optional<double> &value,
                        uint64_t ts) {
  if (!value) return;
  if (!slot) slot = host_.track(PROF_TRACK_COUNTER, name, parent, 0, 0, index, unit);
  if (*slot != 0) host_.counter(*slot, ts, *value);
}

prof_track_id CounterTracks::cpu_group() {
  if (!cpu_group_) cpu_group_ = host_.track(PROF_TRACK_CUSTOM, track_names::kCpuGroup);
  return *cpu_group_;
}

prof_track_id CounterTracks::process() {
  if (!process_) process_ = host_.track(PROF_TRACK_PROCESS, process_name_, 0, target_pid_);
  return *process_;
}

} // namespace prof::cpu_util
