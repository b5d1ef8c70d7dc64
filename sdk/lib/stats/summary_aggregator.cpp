#include <prof/stats/summary_aggregator.hpp>

namespace prof::stats {

const char *group_title(ActivityGroup group) {
  switch (group) {
  case ActivityGroup::Device:
    return "GCU activites:"; // topsprof's spelling, which scripts parse
  case ActivityGroup::Api:
    return "API calls:";
  case ActivityGroup::OsRuntime:
    return "OS runtime:";
  case ActivityGroup::ThreadStates:
    return "Thread states:";
  case ActivityGroup::CpuSchedule:
    return "CPU schedule:";
  case ActivityGroup::Ranges:
    return "Ranges:";
  case ActivityGroup::Operators:
    return "Operators:";
  }
  return "";
}

void SummaryAggregator::add(const prof_event &event) {
  ++events_seen_;
  switch (event.type) {
  case PROF_EVENT_SLICE: {
    const TrackPlace place = tracks_.place(event.track);
    ActivityKey key{ActivityGroup::Device, place.device, event.name};
    if (!place.device_side) {
      // Calls of any vendor's API by their category; "api" in reports before ABI 1.5.
      key.group = is_api_call(event.kind)                ? ActivityGroup::Api
                  : event.kind == PROF_CATEGORY_OPERATOR ? ActivityGroup::Operators
                                                         : host_group(event.category);
      key.device = 0;
    }
    activity(key).add(event.duration);
    break;
  }
  case PROF_EVENT_COUNTER:
    counters_[event.track].add(event.value);
    break;
  default:
    break;
  }
}

DurationStats &SummaryAggregator::activity(const ActivityKey &key) {
  const uint64_t bits =
      (static_cast<uint64_t>(key.device) << 32 | key.name) ^ static_cast<uint64_t>(key.group) << 61;
  RecentActivities::Entry &entry =
      recent_.entries[(bits * 0x9E3779B97F4A7C15ull) >> 56 & (recent_.entries.size() - 1)];
  if (entry.stats == nullptr || !(entry.key == key)) {
    entry.key = key;
    entry.stats = &activities_[key];
  }
  return *entry.stats;
}

void SummaryAggregator::merge(const SummaryAggregator &other) {
  events_seen_ += other.events_seen_;
  for (const auto &[key, stats] : other.activities_)
    activities_[key].merge(stats);
  for (const auto &[track, stats] : other.counters_)
    counters_[track].merge(stats);
}

ActivityGroup SummaryAggregator::host_group(prof_string_id category) {
  auto found = category_groups_.find(category);
  if (found != category_groups_.end()) return found->second;
  const std::string_view text = category == 0 ? std::string_view() : host_.string(category);
  ActivityGroup group = ActivityGroup::Ranges;
  if (text == "api")
    group = ActivityGroup::Api;
  else if (text == "osrt")
    group = ActivityGroup::OsRuntime;
  else if (text == "thread-state")
    group = ActivityGroup::ThreadStates;
  else if (text == "cpu-schedule")
    group = ActivityGroup::CpuSchedule;
  category_groups_.emplace(category, group);
  return group;
}

} // namespace prof::stats
