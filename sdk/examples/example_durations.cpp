#include "example_durations.hpp"

#include <prof/activity/name_match.hpp>
#include <prof/stats/summary_tables.hpp>

namespace example {

bool DurationsExporter::begin() {
  const std::string_view list = host_.option("names").value_or("");
  for (size_t start = 0; start < list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    if (comma > start) names_.emplace_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return true;
}

bool DurationsExporter::wanted(std::string_view name) const {
  if (names_.empty()) return true;
  for (const std::string &n : names_)
    if (prof::activity::iequals(n, name)) return true;
  return false;
}

bool DurationsExporter::consume(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    if (e.type != PROF_EVENT_SLICE) continue;
    const std::string_view name = host_.string(e.name);
    if (wanted(name)) by_name_[std::string(name)].add(e.duration);
  }
  return true;
}

bool DurationsExporter::end() {
  prof::stats::ActivityGroupRows group{prof::stats::ActivityGroup::Ranges, {}};
  for (const auto &[name, stats] : by_name_)
    group.rows.push_back({name, stats});
  if (group.rows.empty()) {
    host_.print("example-durations: no slices");
    return true;
  }
  for (const std::string &line : prof::stats::format_activity_table({group}))
    host_.print(line);
  return true;
}

} // namespace example
