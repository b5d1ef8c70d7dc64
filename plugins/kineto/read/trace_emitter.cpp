#include "read/trace_emitter.hpp"

#include <prof/kineto_format.hpp>
#include <prof/launcher_rank.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::kineto {
namespace {

/// Timestamps at or past this many ns are wall-clock ones (1973 on).
constexpr int64_t kWallClockNs = 100'000'000'000'000'000;
/// What a process is called when the trace does not say.
constexpr std::string_view kDefaultProcess = "python3";

/// The trace's strings as the host's ids, interned on first use.
class HostStrings {
public:
  HostStrings(const TraceStrings &strings, const Host &host)
      : strings_(strings), host_(host), ids_(strings.size(), 0) {}
  prof_string_id operator()(prof_string_id id) {
    if (id == 0 || id >= ids_.size()) return 0;
    if (ids_[id] == 0) ids_[id] = host_.intern(strings_.text(id));
    return ids_[id];
  }

private:
  const TraceStrings &strings_;
  const Host &host_;
  std::vector<prof_string_id> ids_;
};

/// The report's tracks, one per lane and the processes and devices above.
class TrackPlan {
public:
  TrackPlan(const ImportedTrace &trace, const Host &host) : trace_(trace), host_(host) {}

  prof_track_id track_of(const Lane &lane) {
    if (const auto it = lanes_.find(lane); it != lanes_.end()) return it->second;
    prof_track_id id = 0;
    if (lane.device) {
      const prof_track_id parent = device(lane.pid);
      const bool memory = lane.tid == kDeviceMemoryRow;
      id = memory ? host_.track(PROF_TRACK_CUSTOM, "Memory", parent)
                  : host_.track(PROF_TRACK_ENGINE, "Stream " + std::to_string(lane.tid), parent, 0,
                                0, static_cast<int>(std::max<int64_t>(lane.tid, -1)));
    } else {
      const prof_track_id parent = process(lane.pid);
      const auto named = trace_.thread_names.find({lane.pid, lane.tid});
      const auto text = trace_.lane_texts.find(lane.tid);
      const std::string name = named != trace_.thread_names.end() ? named->second
                               : text != trace_.lane_texts.end()
                                   ? text->second
                                   : "thread " + std::to_string(lane.tid);
      id = host_.track(PROF_TRACK_THREAD, name, parent, os_id(process_pid(lane.pid)),
                       os_id(lane.tid));
    }
    return lanes_[lane] = id;
  }

private:
  static int32_t os_id(int64_t id) {
    return id > 0 && id <= std::numeric_limits<int32_t>::max() ? static_cast<int32_t>(id) : 0;
  }

  /// A process named by text (Kineto's "Spans") is the trace's process.
  int64_t process_pid(int64_t pid) const {
    return pid < 0 && !trace_.pids.empty() ? trace_.pids.front() : pid;
  }

  prof_track_id process(int64_t pid) {
    pid = process_pid(pid);
    if (const auto it = processes_.find(pid); it != processes_.end()) return it->second;
    const auto named = trace_.process_names.find(pid);
    std::string name = named != trace_.process_names.end() && !named->second.empty()
                           ? named->second
                           : std::string(kDefaultProcess);
    if (trace_.distributed.rank) name += rank_suffix(std::to_string(*trace_.distributed.rank));
    return processes_[pid] = host_.track(PROF_TRACK_PROCESS, name, 0, os_id(pid));
  }

  prof_track_id device(int64_t index) {
    if (const auto it = devices_.find(index); it != devices_.end()) return it->second;
    const auto device_index = static_cast<int>(std::clamp<int64_t>(index, 0, 1 << 20));
    return devices_[index] = host_.track(PROF_TRACK_DEVICE, "GPU " + std::to_string(device_index),
                                         0, 0, 0, device_index);
  }

  const ImportedTrace &trace_;
  const Host &host_;
  std::map<Lane, prof_track_id> lanes_;
  std::map<int64_t, prof_track_id> processes_, devices_;
};

} // namespace

void emit_trace(const ImportedTrace &trace, const ImportHost &import) {
  const Host &host = import.host();
  int64_t first = std::numeric_limits<int64_t>::max();
  for (const ImportedEvent &e : trace.events)
    first = std::min(first, e.ts);
  if (trace.events.empty()) first = 0;
  // Wall-clock times: baseTimeNanoseconds plus relative ones, or absolute ones.
  std::optional<int64_t> base = trace.base_time_ns;
  if (!base && trace.form == TraceForm::Kineto && first >= kWallClockNs) base = 0;
  const bool wall_clock = base.has_value();
  // Report time kImportStartNs is the first event (wall clock) or the
  // profiler's start, the trace's 0 (otherwise).
  const int64_t zero = wall_clock ? first : std::min<int64_t>(first, 0);
  const auto at = [&](int64_t ts) { return static_cast<uint64_t>(ts - zero) + kImportStartNs; };

  HostStrings strings(trace.strings, host);
  TrackPlan tracks(trace, host);
  std::vector<prof_arg> args;
  for (const ImportedEvent &e : trace.events) {
    const prof_track_id track = tracks.track_of(e.lane);
    if (e.type == PROF_EVENT_FLOW) {
      host.api()->emit_flow(host.context(), track, at(e.ts), e.id,
                            static_cast<prof_flow_phase>(e.phase));
      continue;
    }
    args = e.args;
    for (prof_arg &a : args) {
      a.key = strings(a.key);
      if (a.type == PROF_ARG_STRING) a.value.u = strings(a.value.s); // no stray upper bytes
    }
    if (e.type == PROF_EVENT_SLICE)
      host.slice(track, at(e.ts), static_cast<uint64_t>(e.duration), strings(e.name),
                 strings(e.category), e.id, static_cast<prof_category>(e.kind), args);
    else
      host.instant(track, at(e.ts), strings(e.name), strings(e.category),
                   static_cast<prof_category>(e.kind), args);
  }

  const auto named =
      trace.pids.empty() ? trace.process_names.end() : trace.process_names.find(trace.pids.front());
  const std::string program =
      named != trace.process_names.end() ? named->second : std::string(kDefaultProcess);
  const std::string rank =
      trace.distributed.rank ? std::to_string(*trace.distributed.rank) : std::string();
  const std::string world_size =
      trace.distributed.world_size ? std::to_string(*trace.distributed.world_size) : std::string();
  std::vector<const char *> details;
  if (!trace.distributed.backend.empty())
    details.insert(details.end(),
                   {kineto_format::kDetailBackend, trace.distributed.backend.c_str()});
  if (!world_size.empty())
    details.insert(details.end(), {kineto_format::kDetailWorldSize, world_size.c_str()});
  prof_import_facts facts{};
  facts.struct_size = sizeof facts;
  facts.program = program.c_str();
  facts.format = trace.form == TraceForm::Kineto ? "kineto" : "legacy";
  facts.rank = rank.c_str();
  facts.pids = trace.pids.data();
  facts.pid_count = static_cast<uint32_t>(trace.pids.size());
  facts.realtime_anchor_ns = wall_clock ? static_cast<uint64_t>(*base + first) : 0;
  facts.monotonic_anchor_ns = kImportStartNs;
  facts.start_ns = kImportStartNs;
  facts.details = details.data();
  facts.detail_count = static_cast<uint32_t>(details.size() / 2);
  import.set_facts(facts);
  if (!wall_clock)
    host.log(PROF_LOG_WARN,
             std::string("the trace has no wall-clock times") +
                 (trace.form == TraceForm::Legacy ? " (PyTorch's legacy profiler)" : "") +
                 ": its times count from the profiler's start; prof merge aligns "
                 "such ranks on the collective operations they share, else at their "
                 "profiler starts");
}

} // namespace prof::kineto
