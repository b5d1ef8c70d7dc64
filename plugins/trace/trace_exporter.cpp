#include "trace_exporter.hpp"

#include <prof/declared_options.hpp>
#include <prof/drop_causes.hpp>
#include <prof/stats/text_table.hpp>
#include <prof/stats/time_format.hpp>

namespace prof::trace {

using stats::Align;
using stats::format_duration;

bool TraceExporter::begin() {
  const DeclaredOptions declared(host_, kOptions);
  const std::string_view scope = declared.text("scope");
  if (scope != "all" && scope != "gcu") {
    host_.log(PROF_LOG_ERROR,
              "trace: unknown scope '" + std::string(scope) + "' (choose all or gcu)");
    return false;
  }
  device_only_ = scope == "gcu";
  records_.clear();
  return true;
}

bool TraceExporter::consume(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    if (e.type == PROF_EVENT_COUNTER || e.type == PROF_EVENT_SAMPLE) ++other_events_;
    if (e.type != PROF_EVENT_SLICE && e.type != PROF_EVENT_INSTANT) continue;
    if (device_only_ && !tracks_.place(e.track).device_side) continue;
    records_.push_back({e.ts, e.duration, e.track, e.name, e.type == PROF_EVENT_INSTANT,
                        static_cast<prof_args_id>(e.args)});
  }
  return true;
}

bool TraceExporter::end() {
  if (records_.empty()) {
    // Counters and samples are not activities: say they exist, so an empty
    // trace of a counter capture does not read as "nothing was collected".
    const std::string others = other_events_
                                   ? " (" + std::to_string(other_events_) +
                                         " counter values and samples were; see the summary)"
                                   : "";
    host_.print(device_only_
                    ? "======== Profiling result: no GCU activities were collected" + others
                    : "======== Profiling result: no activities were collected" + others);
  } else {
    sort_by_start(records_);
    print_records();
  }
  for (const std::string &line : drop_warnings(host_)) // every loss, by cause
    host_.print(line);
  records_.clear();
  records_.shrink_to_fit();
  return true;
}

void TraceExporter::print_records() {
  std::vector<stats::TextColumn> columns{
      {"Start", Align::Right}, {"Duration", Align::Right}, {"Name", Align::Left}};
  if (!device_only_) columns.push_back({"Track", Align::Left});
  stats::TextTable table(std::move(columns));

  const uint64_t origin = records_.front().ts;
  // Two passes: widths first, so a long trace is never held as text.
  for (const TraceRecord &r : records_) {
    table.fit(0, format_duration(r.ts - origin));
    if (!r.instant) table.fit(1, format_duration(r.duration));
    table.fit(2, name_label(r));
    if (!device_only_) table.fit(3, track_label(r.track));
  }
  host_.print("======== Profiling result:");
  host_.print(table.header());
  for (const TraceRecord &r : records_) {
    const std::string start = format_duration(r.ts - origin);
    const std::string duration = r.instant ? "-" : format_duration(r.duration);
    std::vector<std::string_view> row{start, duration, name_label(r)};
    if (!device_only_) row.push_back(track_label(r.track));
    host_.print(table.format(row));
  }
}

std::string_view TraceExporter::name_label(const TraceRecord &record) {
  const uint64_t key = static_cast<uint64_t>(record.name) << 32 | record.args;
  auto found = name_labels_.find(key);
  if (found != name_labels_.end()) return found->second;
  const std::string args = host_.args_text(record.args, ", ");
  std::string label(host_.string(record.name));
  if (!args.empty()) label += " (" + args + ")";
  return name_labels_.emplace(key, std::move(label)).first->second;
}

std::string_view TraceExporter::track_label(prof_track_id track) {
  auto found = track_labels_.find(track);
  if (found != track_labels_.end()) return found->second;
  const prof_track_desc *desc = host_.track(track);
  std::string label = desc != nullptr && desc->name != nullptr && desc->name[0] != '\0'
                          ? std::string(desc->name)
                          : "track " + std::to_string(track);
  return track_labels_.emplace(track, std::move(label)).first->second;
}

} // namespace prof::trace
