#include <prof/stats/activity_rows.hpp>

namespace prof::stats {

std::map<ActivityGroup, NamedStats>
activities_by_group(const SummaryAggregator &aggregator, const ExportHost &host,
                    const std::function<bool(ActivityGroup)> &keep) {
  std::map<ActivityGroup, NamedStats> groups;
  for (const auto &[key, stats] : aggregator.activities())
    if (!keep || keep(key.group))
      groups[key.group][std::string(host.string(key.name))].merge(stats);
  return groups;
}

std::map<prof_track_id, NamedStats> device_activities(const SummaryAggregator &aggregator,
                                                      const ExportHost &host) {
  std::map<prof_track_id, NamedStats> devices;
  for (const auto &[key, stats] : aggregator.activities())
    if (key.group == ActivityGroup::Device)
      devices[key.device][std::string(host.string(key.name))].merge(stats);
  return devices;
}

ActivityGroupRows to_rows(ActivityGroup group, const NamedStats &stats) {
  ActivityGroupRows rows{group, {}};
  rows.rows.reserve(stats.size());
  for (const auto &[name, s] : stats)
    rows.rows.push_back({name, s});
  return rows;
}

std::string device_label(const ExportHost &host, prof_track_id device) {
  const prof_track_desc *desc = device == 0 ? nullptr : host.track(device);
  if (desc == nullptr) return "unknown device";
  if (desc->name != nullptr && desc->name[0] != '\0') return desc->name;
  return "GCU " + std::to_string(desc->index);
}

} // namespace prof::stats
