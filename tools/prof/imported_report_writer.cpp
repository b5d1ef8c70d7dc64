#include "tools/prof/imported_report_writer.hpp"

#include "core/report/report_writer.hpp"

#include <prof/launcher_rank.hpp>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

namespace prof::tool {
namespace {

using report::TrackRecord;

/// Timestamps at or past this many ns are wall-clock ones (1973 on).
constexpr int64_t kWallClockNs = 100'000'000'000'000'000;
/// What a process is called when the trace does not say.
constexpr std::string_view kDefaultProcess = "python3";

/// The report's tracks, one per lane and the processes and devices above.
class TrackPlan {
public:
  TrackPlan(const ImportedTrace &trace) : trace_(trace) {}

  uint32_t track_of(const Lane &lane) {
    if (const auto it = lanes_.find(lane); it != lanes_.end()) return it->second;
    const uint32_t parent = lane.device ? device(lane.pid) : process(lane.pid);
    std::string name;
    TrackRecord record;
    if (lane.device) {
      const bool memory = lane.tid == kDeviceMemoryRow;
      record = {0,
                memory ? PROF_TRACK_CUSTOM : PROF_TRACK_ENGINE,
                parent,
                memory ? "Memory" : "Stream " + std::to_string(lane.tid),
                0,
                0,
                memory ? -1 : static_cast<int32_t>(std::max<int64_t>(lane.tid, -1)),
                "",
                PROF_CLOCK_SESSION};
    } else {
      const auto named = trace_.thread_names.find({lane.pid, lane.tid});
      const auto text = trace_.lane_texts.find(lane.tid);
      record = {0,
                PROF_TRACK_THREAD,
                parent,
                named != trace_.thread_names.end() ? named->second
                : text != trace_.lane_texts.end()  ? text->second
                                                   : "thread " + std::to_string(lane.tid),
                os_id(process_pid(lane.pid)),
                os_id(lane.tid),
                -1,
                "",
                PROF_CLOCK_SESSION};
    }
    return lanes_[lane] = add(std::move(record));
  }

  const std::vector<TrackRecord> &tracks() const { return tracks_; }

private:
  static int32_t os_id(int64_t id) {
    return id > 0 && id <= std::numeric_limits<int32_t>::max() ? static_cast<int32_t>(id) : 0;
  }

  uint32_t add(TrackRecord record) {
    record.id = static_cast<uint32_t>(tracks_.size() + 1);
    tracks_.push_back(std::move(record));
    return tracks_.back().id;
  }

  /// A process named by text (Kineto's "Spans") is the trace's process.
  int64_t process_pid(int64_t pid) const {
    return pid < 0 && !trace_.pids.empty() ? trace_.pids.front() : pid;
  }

  uint32_t process(int64_t pid) {
    pid = process_pid(pid);
    if (const auto it = processes_.find(pid); it != processes_.end()) return it->second;
    const auto named = trace_.process_names.find(pid);
    std::string name = named != trace_.process_names.end() && !named->second.empty()
                           ? named->second
                           : std::string(kDefaultProcess);
    if (trace_.distributed.rank) name += rank_suffix(std::to_string(*trace_.distributed.rank));
    return processes_[pid] =
               add({0, PROF_TRACK_PROCESS, 0, name, os_id(pid), 0, -1, "", PROF_CLOCK_SESSION});
  }

  uint32_t device(int64_t index) {
    if (const auto it = devices_.find(index); it != devices_.end()) return it->second;
    const auto device_index = static_cast<int32_t>(std::clamp<int64_t>(index, 0, 1 << 20));
    return devices_[index] = add({0, PROF_TRACK_DEVICE, 0, "GPU " + std::to_string(device_index), 0,
                                  0, device_index, "", PROF_CLOCK_SESSION});
  }

  const ImportedTrace &trace_;
  std::vector<TrackRecord> tracks_;
  std::map<Lane, uint32_t> lanes_;
  std::map<int64_t, uint32_t> processes_, devices_;
};

/// Argument sets, equal ones shared.
class ArgsPlan {
public:
  uint64_t id_of(const std::vector<prof_arg> &args) {
    if (args.empty()) return 0;
    std::string key;
    for (const prof_arg &a : args) {
      const uint64_t value = a.type == PROF_ARG_STRING ? a.value.s : a.value.u;
      key.append(reinterpret_cast<const char *>(&a.key), sizeof a.key);
      key.append(reinterpret_cast<const char *>(&a.type), sizeof a.type);
      key.append(reinterpret_cast<const char *>(&value), sizeof value);
    }
    const auto [it, added] = ids_.try_emplace(std::move(key), 0);
    if (added) {
      it->second = static_cast<uint32_t>(sets_.size() + 1);
      report::ArgsRecord record{it->second, args};
      for (prof_arg &a : record.args)
        if (a.type == PROF_ARG_STRING) a.value.u = a.value.s; // no stray upper bytes
      sets_.push_back(std::move(record));
    }
    return it->second;
  }
  const std::vector<report::ArgsRecord> &sets() const { return sets_; }

private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<report::ArgsRecord> sets_;
};

report::Header header_of(const ImportedTrace &trace, const std::string &source,
                         const ImportedReportFacts &facts, report::ClockAnchor anchor,
                         uint64_t start) {
  report::Header header;
  header.session_name = "import";
  const auto named =
      trace.pids.empty() ? trace.process_names.end() : trace.process_names.find(trace.pids.front());
  const std::string program =
      named != trace.process_names.end() ? named->second : std::string(kDefaultProcess);
  header.argv = {program};
  header.command_display =
      program + " (imported from " + std::filesystem::path(source).filename().string() + ")";
  header.pids = trace.pids;
  header.clock_anchor = anchor;
  header.session_start_ns = start;
  if (trace.distributed.rank) header.rank = std::to_string(*trace.distributed.rank);
  report::PluginRecord plugin{
      "pytorch-trace",
      trace.form == TraceForm::Kineto ? "kineto" : "legacy",
      {{"file", source}, {"clock", facts.wall_clock ? "realtime" : "start"}}};
  if (!trace.distributed.backend.empty())
    plugin.options.emplace_back("backend", trace.distributed.backend);
  if (trace.distributed.world_size)
    plugin.options.emplace_back("world_size", std::to_string(*trace.distributed.world_size));
  header.plugins = {plugin};
  return header;
}

} // namespace

ImportedReportFacts write_imported_report(const ImportedTrace &trace, const std::string &source,
                                          const std::string &path) {
  ImportedReportFacts facts;
  int64_t first = std::numeric_limits<int64_t>::max();
  for (const ImportedEvent &e : trace.events)
    first = std::min(first, e.ts);
  if (trace.events.empty()) first = 0;
  // Wall-clock times: baseTimeNanoseconds plus relative ones, or absolute ones.
  std::optional<int64_t> base = trace.base_time_ns;
  if (!base && trace.form == TraceForm::Kineto && first >= kWallClockNs) base = 0;
  facts.wall_clock = base.has_value();
  // Report time kImportStartNs is the first event (wall clock) or the
  // profiler's start, the trace's 0 (otherwise).
  const int64_t zero = facts.wall_clock ? first : std::min<int64_t>(first, 0);
  const report::ClockAnchor anchor{
      facts.wall_clock ? static_cast<uint64_t>(*base + first) : kImportStartNs, kImportStartNs};
  const auto at = [&](int64_t ts) { return static_cast<uint64_t>(ts - zero) + kImportStartNs; };

  TrackPlan tracks(trace);
  ArgsPlan args;
  std::vector<prof_event> events;
  events.reserve(trace.events.size());
  uint64_t end = kImportStartNs;
  for (const ImportedEvent &e : trace.events) {
    prof_event out{};
    out.type = e.type;
    out.flags = e.type == PROF_EVENT_FLOW ? e.phase : 0;
    out.kind = e.type == PROF_EVENT_FLOW ? 0 : e.kind;
    out.track = tracks.track_of(e.lane);
    out.name = e.type == PROF_EVENT_FLOW ? 0 : e.name;
    out.category = e.type == PROF_EVENT_FLOW ? 0 : e.category;
    out.ts = at(e.ts);
    out.duration = e.type == PROF_EVENT_SLICE ? static_cast<uint64_t>(e.duration) : 0;
    out.id = e.id;
    if (e.type != PROF_EVENT_FLOW) out.args = args.id_of(e.args);
    end = std::max(end, out.ts + out.duration);
    events.push_back(out);
  }
  // In time order, an enclosing slice before what it encloses.
  std::stable_sort(events.begin(), events.end(), [](const prof_event &a, const prof_event &b) {
    return a.ts != b.ts ? a.ts < b.ts : a.duration > b.duration;
  });
  facts.events = events.size();

  report::ReportWriter writer;
  writer.open(path, header_of(trace, source, facts, anchor, kImportStartNs), false);
  std::vector<std::string_view> texts;
  for (prof_string_id id = 1; id < trace.strings.size(); ++id)
    texts.emplace_back(trace.strings.text(id));
  writer.add_strings(1, texts);
  writer.add_tracks(tracks.tracks());
  writer.add_args(args.sets());
  writer.add_events(events.data(), events.size());
  writer.finish({end, events.size(), 0, 0, false, 0});
  return facts;
}

} // namespace prof::tool
