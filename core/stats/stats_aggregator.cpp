#include "core/stats/stats_aggregator.hpp"

#include <algorithm>
#include <string_view>

namespace prof::stats {

bool StatsAggregator::is_memcpy(const prof_event &slice) {
  auto by_category = memcpy_categories_.find(slice.category);
  if (by_category == memcpy_categories_.end())
    by_category =
        memcpy_categories_
            .emplace(slice.category,
                     slice.category != 0 && host_.string(slice.category) == "DMA VC Execution")
            .first;
  if (by_category->second) return true;
  auto by_name = memcpy_names_.find(slice.name);
  if (by_name == memcpy_names_.end()) {
    const std::string_view name = slice.name == 0 ? std::string_view() : host_.string(slice.name);
    by_name =
        memcpy_names_.emplace(slice.name, name.starts_with("Memcpy") || name.starts_with("Memset"))
            .first;
  }
  return by_name->second;
}

void StatsAggregator::add(const prof_event *events, size_t count) {
  const bool device_work = scope_.memcpy || scope_.timelines;
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    summary_.add(e);
    first_ts_ = std::min(first_ts_, e.ts);
    last_ts_ = std::max(last_ts_, e.ts + e.duration);
    if (e.type == PROF_EVENT_SLICE && device_work) {
      const console::TrackPlace place = summary_.tracks().place(e.track);
      if (!place.device_side) continue;
      if (scope_.timelines) {
        auto timeline = timelines_.find(place.device);
        if (timeline == timelines_.end())
          timeline = timelines_.emplace(place.device, BusyTimeline(scope_.timeline_join_gap)).first;
        timeline->second.add(e.ts, e.ts + e.duration);
      }
      if (scope_.memcpy && is_memcpy(e)) memcpy_[e.name].add(e.duration);
    } else if (e.type == PROF_EVENT_SAMPLE && scope_.functions && e.id != 0 && e.category == 0) {
      // CPU samples only, as in the summary: a stack with a category belongs
      // to something else (e.g. a blocking call's slice).
      functions_.add(static_cast<prof_stack_id>(e.id));
    }
  }
}

void StatsAggregator::merge(StatsAggregator &other) {
  summary_.merge(other.summary_);
  for (const auto &[name, stats] : other.memcpy_)
    memcpy_[name].merge(stats);
  for (auto &[device, timeline] : other.timelines_) {
    auto mine = timelines_.find(device);
    if (mine == timelines_.end())
      mine = timelines_.emplace(device, BusyTimeline(scope_.timeline_join_gap)).first;
    mine->second.merge(timeline);
  }
  functions_.merge(other.functions_);
  first_ts_ = std::min(first_ts_, other.first_ts_);
  last_ts_ = std::max(last_ts_, other.last_ts_);
}

} // namespace prof::stats
