#include "summary_aggregator.hpp"

namespace prof::summary {

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
  }
  return "";
}

void SummaryAggregator::add(const prof_event &event) {
  ++events_seen_;
  switch (event.type) {
  case PROF_EVENT_SLICE: {
    const console::TrackPlace &place = tracks_.place(event.track);
    ActivityKey key{ActivityGroup::Device, place.device, event.name};
    if (!place.device_side) {
      key.group = host_group(event.category);
      key.device = 0;
    }
    activities_[key].add(event.duration);
    break;
  }
  case PROF_EVENT_COUNTER:
    counters_[event.track].add(event.value);
    break;
  default:
    break;
  }
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

} // namespace prof::summary
