#include <prof/stats/run_profile.hpp>

#include <prof/event.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/step_times.hpp>

#include <algorithm>
#include <tuple>

namespace prof::stats {
namespace {

/// A step's span in one process.
struct StepSpan {
  uint64_t first = 0, last = 0, step = 0;
};

/// A parent call open during the sweep of a thread's slices.
struct OpenCall {
  uint64_t end = 0;
  std::string name;                         ///< "operator aten::linear"
  std::map<std::string, uint32_t> children; ///< by kind: how many began in it so far
  uint32_t launches = 0;
};

/// What device work takes from the host call that launched it.
struct LaunchPoint {
  uint64_t ts = 0;
  prof_track_id track = 0;
  ItemPlace place;
};

/// The step of `spans` (sorted by first) whose span holds `ts`; 0 if none.
uint64_t step_at(const std::vector<StepSpan> &spans, uint64_t ts) {
  auto at = std::upper_bound(spans.begin(), spans.end(), ts,
                             [](uint64_t t, const StepSpan &s) { return t < s.first; });
  // Spans of one process may overlap (threads): look at the two before.
  for (int back = 0; back < 2 && at != spans.begin(); ++back) {
    --at;
    if (ts >= at->first && ts < at->last) return at->step;
  }
  return 0;
}

} // namespace

RunProfileBuilder::RunProfileBuilder(const ExportHost &host)
    : host_(host), tracks_(host), steps_(host, StatsScope{.steps = true}) {}

const prof_arg *RunProfileBuilder::arg_named(const prof_event &e, std::string_view key) {
  for (const prof_arg &a : host_.args(e.args)) {
    auto known = key_names_.find(a.key);
    if (known == key_names_.end()) known = key_names_.emplace(a.key, host_.string(a.key)).first;
    if (known->second == key) return &a;
  }
  return nullptr;
}

prof_string_id RunProfileBuilder::string_arg(const prof_event &e, std::string_view key) {
  const prof_arg *a = arg_named(e, key);
  return a != nullptr && a->type == PROF_ARG_STRING ? a->value.s : 0;
}

void RunProfileBuilder::add(const prof_event *events, size_t count) {
  steps_.add(events, count);
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    if (e.type != PROF_EVENT_SLICE) continue;
    Kept kept{e.ts, e.ts + e.duration, e.id, e.track, e.name, 0, e.kind, Role::Item, 0};
    if (tracks_.place(e.track).device_side) {
      // Work of no well-known category repeats what others say (an engine's busy time).
      if (e.kind == PROF_CATEGORY_OTHER) continue;
      kept.role = Role::Device;
    } else if (e.kind == PROF_CATEGORY_OPERATOR) {
      kept.detail = string_arg(e, PROF_OPERATOR_ARG_PASS);
    } else if (e.kind == PROF_CATEGORY_ANNOTATION) {
      if (const prof_arg *step = arg_named(e, PROF_STEP_ARG);
          step != nullptr && (step->type == PROF_ARG_UINT || step->type == PROF_ARG_INT))
        continue; // a step: StatsAggregator::steps() has it
      auto python = python_categories_.find(e.category);
      if (python == python_categories_.end()) {
        const std::string_view category = host_.string(e.category);
        const bool is_python =
            category.starts_with("python") && (category.size() == 6 || category[6] == '/');
        python = python_categories_.emplace(e.category, is_python).first;
      }
      kept.source = python->second ? 1 : 0;
    } else if (e.kind == PROF_CATEGORY_COMMUNICATION) {
      kept.role = Role::Leaf;
      kept.detail = string_arg(e, "communicator");
    } else if (is_api_call(e.kind) && e.id != 0) {
      kept.role = Role::Launch;
    } else {
      continue;
    }
    kept_.push_back(kept);
  }
}

ItemKey RunProfileBuilder::key_of(const Kept &slice) {
  std::string name(host_.string(slice.name));
  switch (slice.role) {
  case Role::Device: {
    const std::string kind = category_name(slice.kind);
    return {kind.empty() ? "device" : kind, name};
  }
  case Role::Leaf:
    if (slice.detail != 0) name += " @ " + std::string(host_.string(slice.detail));
    return {"collective", name};
  default:
    break;
  }
  if (slice.kind == PROF_CATEGORY_OPERATOR) {
    const std::string_view pass = host_.string(slice.detail);
    if (!pass.empty() && pass != "forward") name += " (" + std::string(pass) + ")";
    return {"operator", name};
  }
  return {slice.source == 1 ? "python" : "range", name};
}

const std::string &RunProfileBuilder::rank_of(prof_track_id process) {
  auto found = ranks_.find(process);
  if (found == ranks_.end()) found = ranks_.emplace(process, process_label(host_, process)).first;
  return found->second;
}

RunProfile RunProfileBuilder::finish() {
  RunProfile profile;
  std::unordered_map<prof_track_id, prof_track_id> processes;
  const auto process_of = [&](prof_track_id track) {
    auto found = processes.find(track);
    if (found == processes.end())
      found = processes.emplace(track, host_.owner_process(track)).first;
    return found->second;
  };

  // Steps: their spans by process for the items, their times for the step item.
  std::unordered_map<prof_track_id, std::vector<StepSpan>> spans;
  for (const auto &[key, span] : steps_.steps()) {
    spans[key.process].push_back({span.first, span.last, key.step});
    profile.steps[key.step].insert(rank_of(key.process));
  }
  for (auto &[process, list] : spans)
    std::sort(list.begin(), list.end(),
              [](const StepSpan &a, const StepSpan &b) { return a.first < b.first; });
  const StepTimes times = step_times(steps_, host_);
  for (const StepTimes::Step &step : times.steps)
    for (const auto &[rank, ns] : step.times) {
      SampleValue &value =
          profile.items[{"step", "step"}].samples[{step.number, times.ranks[rank]}];
      ++value.calls;
      value.time += ns;
    }
  // Work of a process without steps (a device track no process owns) takes
  // the steps of the only process that has them.
  const prof_track_id only = spans.size() == 1 ? spans.begin()->first : 0;

  std::map<ItemKey, std::map<ItemPlace, uint64_t>> places;
  const auto count = [&](const ItemKey &key, const Kept &slice, uint64_t ts, prof_track_id track,
                         const ItemPlace &place) {
    prof_track_id process = process_of(track);
    if (only != 0 && !spans.count(process)) process = only;
    const auto steps = spans.find(process);
    const uint64_t step = steps != spans.end() ? step_at(steps->second, ts) : 0;
    const std::string &rank = rank_of(process);
    SampleValue &value = profile.items[key].samples[{step, rank}];
    ++value.calls;
    value.time += slice.end - slice.ts;
    ++places[key][place];
  };

  // Host slices, thread by thread in time order, the enclosing ones first:
  // each one's parent is the innermost operator or range still open.
  std::vector<Kept *> host;
  for (Kept &slice : kept_)
    if (slice.role != Role::Device) host.push_back(&slice);
  std::sort(host.begin(), host.end(), [](const Kept *a, const Kept *b) {
    return std::tuple(a->track, a->ts, b->end) < std::tuple(b->track, b->ts, a->end);
  });
  std::unordered_map<uint64_t, LaunchPoint> launches;
  std::vector<OpenCall> open;
  prof_track_id track = 0;
  for (const Kept *slice : host) {
    if (slice->track != track) open.clear();
    track = slice->track;
    while (!open.empty() && open.back().end <= slice->ts)
      open.pop_back();
    OpenCall *parent = open.empty() ? nullptr : &open.back();
    if (slice->role == Role::Launch) {
      LaunchPoint &point = launches[slice->id];
      point = {slice->ts, slice->track, {}};
      if (parent != nullptr) point.place = {parent->name, parent->launches++};
      continue;
    }
    const ItemKey key = key_of(*slice);
    ItemPlace place;
    if (parent != nullptr) place = {parent->name, parent->children[key.kind]++};
    count(key, *slice, slice->ts, slice->track, place);
    if (slice->role == Role::Item) open.push_back({slice->end, key.kind + " " + key.name, {}, 0});
  }

  // Device work: in the step and place of the call that launched it, when
  // the report ties them (the same correlation id, in the same process).
  for (const Kept &slice : kept_) {
    if (slice.role != Role::Device) continue;
    const auto launch = slice.id != 0 ? launches.find(slice.id) : launches.end();
    const prof_track_id owner = process_of(slice.track);
    if (launch != launches.end() && (owner == 0 || owner == process_of(launch->second.track)))
      count(key_of(slice), slice, launch->second.ts, launch->second.track, launch->second.place);
    else
      count(key_of(slice), slice, slice.ts, slice.track, {});
  }

  for (const auto &[key, seen] : places) {
    const auto most = std::max_element(
        seen.begin(), seen.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    profile.items[key].place = most->first;
  }
  kept_.clear();
  return profile;
}

} // namespace prof::stats
