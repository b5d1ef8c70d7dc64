#include <prof/stats/step_slices.hpp>

#include <prof/stats/track_classifier.hpp>

#include <algorithm>

namespace prof::stats {

std::vector<StepWindow> choose_step_windows(const StatsAggregator &aggregator, size_t slowest,
                                            const std::vector<uint64_t> &wanted) {
  struct Step {
    StepWindow window;
    uint64_t longest = 0; // its longest time on a process
  };
  std::map<uint64_t, Step> steps;
  for (const auto &[key, span] : aggregator.steps()) {
    auto [it, added] = steps.try_emplace(key.step, Step{{key.step, span.first, span.last}, 0});
    StepWindow &window = it->second.window;
    window.begin = std::min(window.begin, span.first);
    window.end = std::max(window.end, span.last);
    it->second.longest = std::max(it->second.longest, span.length());
  }
  std::vector<const Step *> by_time;
  for (const auto &[number, step] : steps)
    by_time.push_back(&step);
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const Step *a, const Step *b) { return a->longest > b->longest; });
  std::map<uint64_t, StepWindow> chosen;
  for (size_t i = 0; i < by_time.size() && i < slowest; ++i)
    chosen.emplace(by_time[i]->window.step, by_time[i]->window);
  for (const uint64_t number : wanted)
    if (const auto found = steps.find(number); found != steps.end())
      chosen.emplace(number, found->second.window);
  std::vector<StepWindow> windows;
  for (const auto &[number, window] : chosen)
    windows.push_back(window);
  return windows;
}

StepSliceCollector::StepSliceCollector(const ExportHost &host, std::vector<StepWindow> windows)
    : host_(host), windows_(std::move(windows)) {
  std::sort(windows_.begin(), windows_.end(),
            [](const StepWindow &a, const StepWindow &b) { return a.begin < b.begin; });
}

const prof_arg *StepSliceCollector::arg_named(const prof_event &e, std::string_view key,
                                              KeyCache &keys) {
  return stats::arg_named(host_, e, key, keys);
}

const StepWindow *StepSliceCollector::window_of(uint64_t begin, uint64_t end) const {
  // Windows are few (the steps asked for): a scan is as quick as a search.
  for (const StepWindow &window : windows_)
    if (begin == end ? begin >= window.begin && begin <= window.end
                     : begin < window.end && end > window.begin)
      return &window;
  return nullptr;
}

TrackSlices &StepSliceCollector::track_of(prof_track_id track) {
  auto found = tracks_.find(track);
  if (found != tracks_.end()) return found->second;
  TrackSlices &slices = tracks_[track];
  slices.process = host_.owner_process(track);
  TrackClassifier classifier(host_);
  const TrackPlace place = classifier.place(track);
  slices.device = place.device_side;
  slices.kind = place.kind;
  return slices;
}

void StepSliceCollector::add(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    if (e.type == PROF_EVENT_FLOW) {
      if (window_of(e.ts, e.ts) == nullptr) continue;
      if (e.flags == PROF_FLOW_BEGIN)
        flow_begins_[e.id] = {e.track, e.ts};
      else if (e.flags == PROF_FLOW_END)
        flow_ends_[{e.track, e.ts}] = e.id;
      continue;
    }
    if (e.type != PROF_EVENT_SLICE || e.duration == 0) continue;
    const StepWindow *window = window_of(e.ts, e.ts + e.duration);
    if (window == nullptr) continue;
    TrackSlices &track = track_of(e.track);
    KeptSlice slice{e.ts, e.ts + e.duration, e.name, e.kind, e.id};
    slice.arrival = e.ts;
    if (e.kind == PROF_CATEGORY_ANNOTATION)
      if (const prof_arg *step = arg_named(e, PROF_STEP_ARG, step_keys_);
          step != nullptr && (step->type == PROF_ARG_UINT || step->type == PROF_ARG_INT))
        for (const StepWindow &w : windows_)
          if (w.step == step->value.u) {
            StepSpan &span = step_spans_[{w.step, track.process}];
            span.begin = std::min(span.begin, slice.begin);
            if (slice.end >= span.end) {
              span.end = slice.end;
              span.track = e.track;
            }
          }
    if (e.kind == PROF_CATEGORY_COMMUNICATION) {
      const prof_arg *communicator = arg_named(e, "communicator", communicator_keys_);
      const prof_arg *sequence = arg_named(e, "sequence", sequence_keys_);
      if (communicator != nullptr && communicator->type == PROF_ARG_STRING && sequence != nullptr &&
          (sequence->type == PROF_ARG_UINT || sequence->type == PROF_ARG_INT)) {
        slice.communicator = communicator->value.s;
        slice.sequence = sequence->value.u;
        // As StatsAggregator: a call that waited in a queue arrived when queued.
        const prof_arg *queued = arg_named(e, PROF_COMMUNICATION_ARG_QUEUED, queued_keys_);
        const uint64_t wait =
            queued != nullptr && queued->type == PROF_ARG_UINT ? queued->value.u : 0;
        slice.arrival = wait <= e.ts ? e.ts - wait : e.ts;
      }
    }
    track.slices.push_back(slice);
    ++slices_;
  }
}

void StepSliceCollector::finish() {
  for (auto &[id, track] : tracks_) {
    std::vector<KeptSlice> &slices = track.slices;
    std::sort(slices.begin(), slices.end(), [](const KeptSlice &a, const KeptSlice &b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<uint32_t> open; // the slices enclosing the current one
    for (uint32_t i = 0; i < slices.size(); ++i) {
      while (!open.empty() && slices[open.back()].end <= slices[i].begin)
        open.pop_back();
      // A slice that overhangs its parent's end (badly nested sources) is
      // cut there, so that every slice lies within its parent.
      if (!open.empty()) {
        slices[i].parent = open.back();
        slices[i].end = std::min(slices[i].end, slices[open.back()].end);
      }
      open.push_back(i);
    }
  }
}

} // namespace prof::stats
