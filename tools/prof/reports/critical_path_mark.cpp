#include "tools/prof/reports/critical_path_mark.hpp"

#include "core/plugin_host/report_export_view.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include <prof/event.hpp>
#include <prof/stats/critical_path.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/step_slices.hpp>

#include <set>
#include <string>

namespace prof::tool {
namespace {

/// Flow ids of the path's own flows start here, far above any source's.
constexpr uint64_t kFirstFlowId = uint64_t{1} << 62;

prof_event slice_event(prof_track_id track, uint64_t begin, uint64_t end, prof_string_id name,
                       prof_string_id category, prof_args_id args) {
  prof_event e{};
  e.type = PROF_EVENT_SLICE;
  e.track = track;
  e.ts = begin;
  e.duration = end - begin;
  e.name = name;
  e.category = category;
  e.args = args;
  return e;
}

prof_event flow_event(prof_track_id track, uint64_t ts, uint64_t id, prof_flow_phase phase) {
  prof_event e{};
  e.type = PROF_EVENT_FLOW;
  e.flags = static_cast<uint8_t>(phase);
  e.track = track;
  e.ts = ts;
  e.id = id;
  return e;
}

} // namespace

std::vector<prof_event> critical_path_events(const report::ReportReader &reader,
                                             core::Catalog &catalog, size_t slowest,
                                             const std::vector<uint64_t> &steps) {
  const core::ReportExportView view(reader);
  const ExportHost host = view.host();
  stats::StatsScope scope;
  scope.steps = true;
  stats::StatsAggregator aggregator(host, scope);
  reader.for_each_event_batch(
      [&aggregator](const prof_event *events, size_t count) { aggregator.add(events, count); });
  std::set<uint64_t> known;
  for (const auto &[key, span] : aggregator.steps())
    known.insert(key.step);
  for (const uint64_t step : steps)
    if (!known.contains(step))
      throw cli::UsageError("export: --step " + std::to_string(step) +
                            ": no step of that number in this report");
  stats::StepSliceCollector collector(host, stats::choose_step_windows(aggregator, slowest, steps));
  reader.for_each_event_batch(
      [&collector](const prof_event *events, size_t count) { collector.add(events, count); });
  collector.finish();
  const std::vector<stats::CriticalPath> paths = stats::find_critical_paths(collector);
  if (paths.empty()) return {};

  const prof_track_desc desc{sizeof(prof_track_desc),
                             PROF_TRACK_CUSTOM,
                             0,
                             "Critical path",
                             0,
                             0,
                             -1,
                             nullptr,
                             PROF_CLOCK_SESSION,
                             0};
  const prof_track_id track = catalog.tracks.declare(&desc);
  const auto intern = [&catalog](const std::string &text) { return catalog.strings.intern(text); };
  const prof_string_id category = intern("critical-path");
  const prof_string_id step_key = intern(PROF_STEP_ARG), work_key = intern("work"),
                       process_key = intern("process"), thread_key = intern("thread"),
                       lateness_key = intern("lateness"), late_key = intern("late"),
                       what_if_key = intern("time without it");
  std::vector<prof_event> events;
  uint64_t flow = kFirstFlowId;
  for (const stats::CriticalPath &path : paths) {
    std::vector<prof_arg> args{arg_uint(step_key, path.step)};
    if (const stats::PathWait *wait = path.largest_wait()) {
      args.push_back(arg_uint(lateness_key, wait->lateness));
      args.push_back(arg_string(late_key, intern(stats::process_label(host, wait->late))));
      args.push_back(
          arg_uint(what_if_key, path.length() - std::min(wait->lateness, path.length())));
    }
    events.push_back(slice_event(track, path.begin, path.end,
                                 intern("step " + std::to_string(path.step) + " critical path"),
                                 category, catalog.args.intern(args)));
    for (size_t i = 0; i < path.segments.size(); ++i) {
      const stats::PathSegment &s = path.segments[i];
      const std::string work(stats::path_work_name(s.work));
      const prof_arg segment_args[] = {
          arg_string(work_key, intern(work)),
          arg_string(process_key, intern(stats::process_label(host, s.process))),
          arg_string(thread_key, intern(stats::thread_label(host, s.track)))};
      const std::string name = s.name ? work + ": " + std::string(host.string(s.name)) : work;
      events.push_back(slice_event(track, s.begin, s.end, intern(name), category,
                                   catalog.args.intern(segment_args)));
      // Where the path moves to another track, a flow from the stretch
      // before to this one, on the tracks where they ran.
      if (i > 0 && path.segments[i - 1].track != s.track) {
        const stats::PathSegment &before = path.segments[i - 1];
        events.push_back(flow_event(before.track, std::max(before.begin, before.end - 1), flow,
                                    PROF_FLOW_BEGIN));
        events.push_back(flow_event(s.track, s.begin, flow++, PROF_FLOW_END));
      }
    }
  }
  return events;
}

} // namespace prof::tool
