#include "read/trace_emitter.hpp"

#include "read/track_plan.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {
namespace {

/// A time on the trace clock as the report's (never before 0).
uint64_t report_time(int64_t ts) { return ts < 0 ? 0 : static_cast<uint64_t>(ts); }

/// The trace's strings as the host's ids, interned on first use.
class HostStrings {
public:
  HostStrings(const StringPool &pool, const Host &host)
      : pool_(pool), host_(host), ids_(pool.size(), 0) {}
  prof_string_id operator()(uint32_t id) {
    if (id == 0 || id >= ids_.size()) return 0;
    if (ids_[id] == 0) ids_[id] = host_.intern(pool_.text(id));
    return ids_[id];
  }

private:
  const StringPool &pool_;
  const Host &host_;
  std::vector<prof_string_id> ids_;
};

/// One end of a flow, before phases are given.
struct FlowPoint {
  int64_t ts = 0;
  prof_track_id track = 0;
  uint64_t id = 0;
  bool terminating = false;
};

/// Counts of what the emitter left out or closed.
struct Tally {
  uint64_t unended = 0, unmatched_ends = 0, counters_off_counter_tracks = 0,
           events_on_counter_tracks = 0;
};

class Emitter {
public:
  Emitter(const ReadTrace &trace, const Host &host)
      : trace_(trace), host_(host), strings_(trace.strings, host), tracks_(trace, host) {}

  void run();
  TrackPlan &tracks() { return tracks_; }
  const Tally &tally() const { return tally_; }
  int64_t first() const { return first_; }

private:
  void emit_track(uint64_t uuid, std::vector<uint32_t> &events);
  void emit_counters(uint64_t uuid, const std::vector<uint32_t> &events, prof_track_id track);
  /// `late_flow`: the flow id an instant of prof's exporter gave the slice
  /// (late_work_flows), 0 if none.
  void emit_slice(prof_track_id track, const ReadEvent &begin, const ReadEvent *end, int64_t at,
                  uint64_t late_flow);
  /// prof's exporter writes device work that came before its call without
  /// its flow id, and later an instant named as the work at its start with
  /// the id alone (flow_ends.hpp): such slices' indexes in `events` with the
  /// id, and those instants' with 0.
  std::unordered_map<uint32_t, uint64_t> late_work_flows(const std::vector<uint32_t> &events) const;
  void emit_instant(prof_track_id track, const ReadEvent &e);
  void emit_flows();
  void emit_samples();
  /// The event's arguments in host ids, appended to args_.
  void add_args(const ReadEvent &e);

  const ReadTrace &trace_;
  const Host &host_;
  HostStrings strings_;
  TrackPlan tracks_;
  Tally tally_;
  int64_t first_ = 0, last_ = 0;
  std::vector<prof_arg> args_;
  std::vector<FlowPoint> flows_;
};

void Emitter::add_args(const ReadEvent &e) {
  for (uint32_t i = 0; i < e.arg_count && args_.size() < PROF_MAX_ARGS; ++i) {
    prof_arg a = trace_.args[e.args_begin + i];
    a.key = strings_(a.key);
    if (a.type == PROF_ARG_STRING) {
      const prof_string_id text = strings_(a.value.s);
      a.value.u = 0;
      a.value.s = text;
    }
    if (a.key != 0) args_.push_back(a);
  }
}

std::unordered_map<uint32_t, uint64_t>
Emitter::late_work_flows(const std::vector<uint32_t> &events) const {
  std::unordered_map<uint32_t, uint64_t> late;
  const auto flow_alone = [&](const ReadEvent &e) {
    return e.type == EventType::Instant && e.flow_count == 1 && !e.has_category &&
           e.arg_count == 0 && e.name != 0 && !trace_.flows[e.flows_begin].terminating;
  };
  if (std::none_of(events.begin(), events.end(),
                   [&](uint32_t i) { return flow_alone(trace_.events[i]); }))
    return late;
  std::map<std::pair<int64_t, uint32_t>, uint32_t> begins; // (ts, name): a begin without a flow
  for (const uint32_t i : events) {
    const ReadEvent &e = trace_.events[i];
    if (e.type == EventType::SliceBegin && e.flow_count == 0 && e.correlation == 0)
      begins.emplace(std::pair(e.ts, e.name), i);
  }
  for (const uint32_t i : events) {
    const ReadEvent &e = trace_.events[i];
    if (!flow_alone(e)) continue;
    const auto begin = begins.find({e.ts, e.name});
    if (begin == begins.end()) continue;
    late.emplace(begin->second, trace_.flows[e.flows_begin].id);
    late.emplace(i, 0);
    begins.erase(begin);
  }
  return late;
}

void Emitter::emit_slice(prof_track_id track, const ReadEvent &begin, const ReadEvent *end,
                         int64_t at, uint64_t late_flow) {
  args_.clear();
  add_args(begin);
  if (end != nullptr) add_args(*end);
  uint64_t correlation = begin.correlation != 0 ? begin.correlation : late_flow;
  if (correlation == 0 && begin.flow_count > 0) correlation = trace_.flows[begin.flows_begin].id;
  if (correlation == 0 && end != nullptr && end->flow_count > 0)
    correlation = trace_.flows[end->flows_begin].id;
  const uint64_t ts = report_time(begin.ts);
  const uint64_t stop = std::max(report_time(at), ts);
  host_.slice(track, ts, stop - ts, strings_(begin.name), strings_(begin.category), correlation,
              static_cast<prof_category>(begin.kind), args_);
}

void Emitter::emit_instant(prof_track_id track, const ReadEvent &e) {
  for (uint32_t i = 0; i < e.flow_count; ++i) {
    const FlowRef &flow = trace_.flows[e.flows_begin + i];
    flows_.push_back({e.ts, track, flow.id, flow.terminating});
  }
  // prof's exporter writes a flow event as an instant with flow ids alone.
  if (e.flow_count > 0 && !e.has_category && e.arg_count == 0) return;
  args_.clear();
  add_args(e);
  host_.instant(track, report_time(e.ts), strings_(e.name), strings_(e.category),
                static_cast<prof_category>(e.kind), args_);
}

void Emitter::emit_counters(uint64_t uuid, const std::vector<uint32_t> &events,
                            prof_track_id track) {
  const TrackDescription *d = trace_.track(uuid);
  const double scale =
      d != nullptr && d->unit_multiplier > 1 ? static_cast<double>(d->unit_multiplier) : 1.0;
  // An incremental counter's values add up on their sequence, from 0 at each clear.
  std::map<std::pair<uint32_t, uint32_t>, double> sums;
  for (const uint32_t i : events) {
    const ReadEvent &e = trace_.events[i];
    if (e.type != EventType::Counter) {
      ++tally_.events_on_counter_tracks;
      continue;
    }
    double value = e.value;
    if (d != nullptr && d->incremental) value = sums[{e.sequence, e.generation}] += e.value;
    host_.counter(track, report_time(e.ts), value * scale);
  }
}

void Emitter::emit_track(uint64_t uuid, std::vector<uint32_t> &events) {
  const prof_track_id track = tracks_.track(uuid);
  if (track == 0) return;
  if (tracks_.counter(uuid)) {
    emit_counters(uuid, events, track); // in file order: increments add up in it
    return;
  }
  // Begins and ends match in the order their sequence wrote them; a track
  // written from several sequences is matched in time order.
  const uint32_t sequence = trace_.events[events.front()].sequence;
  if (std::any_of(events.begin(), events.end(),
                  [&](uint32_t i) { return trace_.events[i].sequence != sequence; }))
    std::stable_sort(events.begin(), events.end(), [&](uint32_t a, uint32_t b) {
      return trace_.events[a].ts < trace_.events[b].ts;
    });
  const std::unordered_map<uint32_t, uint64_t> late_flows = late_work_flows(events);
  std::vector<uint32_t> open;
  for (const uint32_t i : events) {
    const ReadEvent &e = trace_.events[i];
    if (late_flows.count(i) > 0 && e.type == EventType::Instant) continue;
    switch (e.type) {
    case EventType::SliceBegin:
      open.push_back(i);
      break;
    case EventType::SliceEnd: {
      // The latest open slice, or the latest of the name (and category) the
      // END gives, as the trace processor matches them.
      auto match = open.rbegin();
      if (e.name != 0 || e.category != 0)
        match = std::find_if(open.rbegin(), open.rend(), [&](uint32_t b) {
          const ReadEvent &begin = trace_.events[b];
          return (e.name == 0 || begin.name == e.name) &&
                 (e.category == 0 || begin.category == e.category);
        });
      if (match == open.rend()) {
        ++tally_.unmatched_ends;
        break;
      }
      const auto late = late_flows.find(*match);
      emit_slice(track, trace_.events[*match], &e, e.ts,
                 late == late_flows.end() ? 0 : late->second);
      open.erase(std::next(match).base());
      break;
    }
    case EventType::Instant:
      emit_instant(track, e);
      break;
    case EventType::Counter:
      ++tally_.counters_off_counter_tracks;
      break;
    }
  }
  tally_.unended += open.size();
  for (const uint32_t i : open) {
    const auto late = late_flows.find(i);
    emit_slice(track, trace_.events[i], nullptr, last_,
               late == late_flows.end() ? 0 : late->second);
  }
}

void Emitter::emit_flows() {
  std::stable_sort(flows_.begin(), flows_.end(),
                   [](const FlowPoint &a, const FlowPoint &b) { return a.ts < b.ts; });
  std::unordered_map<uint64_t, bool> started;
  for (const FlowPoint &p : flows_) {
    prof_flow_phase phase = PROF_FLOW_BEGIN;
    if (p.terminating) {
      phase = PROF_FLOW_END;
      started.erase(p.id); // the id may start another flow
    } else if (!started.emplace(p.id, true).second) {
      phase = PROF_FLOW_STEP;
    }
    host_.api()->emit_flow(host_.context(), p.track, report_time(p.ts), p.id, phase);
  }
}

void Emitter::emit_samples() {
  std::vector<prof_stack_id> stacks(trace_.stacks.size(), 0);
  std::vector<prof_string_id> frames;
  for (const ReadSample &s : trace_.samples) {
    if (s.stack == 0 || s.stack >= trace_.stacks.size()) continue;
    if (stacks[s.stack] == 0) {
      frames.clear();
      for (const uint32_t name : trace_.stacks[s.stack])
        frames.push_back(strings_(name));
      stacks[s.stack] = host_.api()->intern_stack(host_.context(), frames.data(),
                                                  static_cast<uint32_t>(frames.size()));
    }
    const prof_track_id track = tracks_.thread(s.pid, s.tid);
    if (track != 0 && stacks[s.stack] != 0)
      host_.api()->emit_sample(host_.context(), track, report_time(s.ts), stacks[s.stack]);
  }
}

void Emitter::run() {
  first_ = std::numeric_limits<int64_t>::max();
  last_ = std::numeric_limits<int64_t>::min();
  for (const ReadEvent &e : trace_.events) {
    first_ = std::min(first_, e.ts);
    last_ = std::max(last_, e.ts);
  }
  for (const ReadSample &s : trace_.samples) {
    first_ = std::min(first_, s.ts);
    last_ = std::max(last_, s.ts);
  }
  if (first_ > last_) first_ = last_ = 0;
  first_ = std::max<int64_t>(first_, 0);

  // Every described track is declared (processes and threads without events
  // name the trace's pids), then each track's events in turn.
  for (const TrackDescription &d : trace_.tracks)
    tracks_.track(d.uuid);
  std::vector<uint64_t> order;
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_track;
  for (uint32_t i = 0; i < trace_.events.size(); ++i) {
    auto [at, added] = by_track.try_emplace(trace_.events[i].track);
    if (added) order.push_back(trace_.events[i].track);
    at->second.push_back(i);
  }
  for (const uint64_t uuid : order)
    emit_track(uuid, by_track[uuid]);
  emit_flows();
  emit_samples();
}

/// One warning per kind of thing left out.
void warn_left_out(const ReadTrace &trace, const Tally &tally, const Host &host) {
  const auto warn = [&](uint64_t count, const std::string &what) {
    if (count > 0) host.log(PROF_LOG_WARN, std::to_string(count) + " " + what);
  };
  const LeftOut &out = trace.left_out;
  if (trace.cut)
    host.log(PROF_LOG_WARN, "the file ends inside a packet at offset " +
                                std::to_string(trace.cut->offset) + " (expected " +
                                std::to_string(trace.cut->expected) + " bytes, found " +
                                std::to_string(trace.cut->found) + "): read the " +
                                std::to_string(trace.cut->packets) + " packets before it");
  warn(out.compressed_packets, "compressed packet bundles left out (prof reads uncompressed "
                               "traces: `traceconv decompress_packets` unpacks them)");
  warn(out.legacy_events, "track events without a type (Chrome's legacy form) left out");
  warn(out.delta_us_events, "track events timed by timestamp_delta_us alone left out");
  warn(out.unconverted, "events on clocks that no clock snapshot relates to the trace clock "
                        "left out");
  warn(out.lost_state_packets, "packets of sequences whose incremental state was lost left out");
  warn(out.missing_iids, "references to names, categories or frames never interned on their "
                         "sequence (left empty)");
  warn(out.assumed_clocks, "events on a clock no snapshot names, taken as the trace clock's");
  warn(tally.unmatched_ends, "slice ends with no open slice on their track left out");
  warn(tally.unended, "slices never ended: closed at the trace's last event");
  warn(tally.counters_off_counter_tracks, "counter values on tracks without a counter descriptor "
                                          "left out");
  warn(tally.events_on_counter_tracks, "slices and instants on counter tracks left out");
}

} // namespace

void emit_trace(const ReadTrace &trace, const ImportHost &import,
                const prof_import_request &request) {
  const Host &host = import.host();
  Emitter emitter(trace, host);
  emitter.run();

  const std::string program = emitter.tracks().program();
  const std::vector<int32_t> pids = emitter.tracks().pids();
  const int64_t rank_number = request.rank >= 0 ? request.rank : request.name_rank;
  const std::string rank = rank_number >= 0 ? std::to_string(rank_number) : std::string();
  const uint64_t start = report_time(emitter.first());
  prof_import_facts facts{};
  facts.struct_size = sizeof facts;
  facts.program = program.empty() ? nullptr : program.c_str();
  facts.format = "perfetto";
  facts.rank = rank.c_str();
  facts.pids = pids.data();
  facts.pid_count = static_cast<uint32_t>(pids.size());
  facts.start_ns = start;
  if (trace.realtime) {
    // The wall clock at the start: the snapshot's, moved by as much.
    const auto [wall, at] = *trace.realtime;
    int64_t moved = 0, anchor = 0;
    if (!__builtin_sub_overflow(static_cast<int64_t>(start), at, &moved) &&
        !__builtin_add_overflow(wall, moved, &anchor) && anchor > 0) {
      facts.realtime_anchor_ns = static_cast<uint64_t>(anchor);
      facts.monotonic_anchor_ns = start;
    }
  }
  import.set_facts(facts);

  warn_left_out(trace, emitter.tally(), host);
  if (facts.realtime_anchor_ns == 0)
    host.log(PROF_LOG_WARN, "the trace has no wall-clock time (no clock snapshot with "
                            "CLOCK_REALTIME beside the trace clock): prof merge aligns such "
                            "ranks on the collective operations they share, else at their "
                            "starts");
}

} // namespace prof::perfetto
