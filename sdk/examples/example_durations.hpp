// example-durations: a minimal exporter plugin that uses the SDK's libraries.
// It prints a table of slice durations by name (prof::stats formats it) for
// the slices whose names its `names` option lists (matched without regard
// to case by prof::activity), or for every slice.
#pragma once

#include <prof/plugin.hpp>
#include <prof/stats/activity_stats.hpp>

#include <map>
#include <string>
#include <vector>

namespace example {

class DurationsExporter {
public:
  explicit DurationsExporter(prof::ExportHost host) : host_(host) {}

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  bool wanted(std::string_view name) const;

  prof::ExportHost host_;
  std::vector<std::string> names_; // empty: every slice
  std::map<std::string, prof::stats::DurationStats> by_name_;
};

} // namespace example
