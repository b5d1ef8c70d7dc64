#include <prof/stats/critical_path.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace prof::stats {

std::string_view path_work_name(PathWork work) {
  switch (work) {
  case PathWork::Compute:
    return "compute";
  case PathWork::Communication:
    return "communication";
  case PathWork::Launch:
    return "launch";
  case PathWork::Host:
    return "host";
  case PathWork::Waiting:
    return "waiting";
  case PathWork::Untraced:
    return "untraced";
  }
  return "untraced";
}

const PathWait *CriticalPath::largest_wait() const {
  const PathWait *largest = nullptr;
  for (const PathWait &wait : waits)
    if (wait.lateness > 0 && (largest == nullptr || wait.lateness > largest->lateness))
      largest = &wait;
  return largest;
}

const PathWait *CriticalPath::holding_wait() const {
  const PathWait *largest = largest_wait();
  return largest != nullptr && largest->lateness * 10 >= length() ? largest : nullptr;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

/// Where a track stands just before a moment t: in its deepest slice
/// running then (or in a gap), and since when that stretch has lasted.
struct Position {
  uint32_t slice = kNone; ///< the deepest slice with begin < t <= end, kNone in a gap
  uint64_t from = 0;      ///< the end of its last child before t, or its begin; in a gap,
                          ///< the end of the last slice before t (0 if none)
};

Position position_at(const TrackSlices &track, uint64_t t) {
  const std::vector<KeptSlice> &slices = track.slices;
  const auto later = std::lower_bound(slices.begin(), slices.end(), t,
                                      [](const KeptSlice &s, uint64_t at) { return s.begin < at; });
  uint32_t i = later == slices.begin() ? kNone : static_cast<uint32_t>(later - slices.begin()) - 1;
  uint32_t child = kNone;
  // Slices nest (StepSliceCollector::finish): the deepest one running just
  // before t is the last one begun before t or one of its parents.
  while (i != kNone && slices[i].end < t) {
    child = i;
    i = slices[i].parent;
  }
  Position p;
  p.slice = i;
  p.from = child != kNone ? slices[child].end : i != kNone ? slices[i].begin : 0;
  return p;
}

/// A slice that may release a waiting thread when it ends: a communication
/// call, or device work.
struct Release {
  uint64_t end = 0;
  prof_track_id track = 0;
  bool device = false;
};

class Walker {
public:
  explicit Walker(const StepSliceCollector &collector) : c_(collector) {
    for (const auto &[id, track] : c_.tracks()) {
      tracks_of_[track.process].push_back(id);
      for (uint32_t i = 0; i < track.slices.size(); ++i) {
        const KeptSlice &s = track.slices[i];
        if (s.collective()) {
          Call &call = ops_[{s.communicator, s.sequence}][track.process];
          if (call.track == 0 || s.begin < call.begin) call = {id, i, s.begin, s.arrival};
        }
        if (track.device || s.kind == PROF_CATEGORY_COMMUNICATION)
          releases_[track.process].push_back({s.end, id, track.device});
        if (!track.device && s.correlation != 0 &&
            (s.kind == PROF_CATEGORY_RUNTIME_API || s.kind == PROF_CATEGORY_DRIVER_API))
          launches_.emplace(s.correlation, std::make_pair(id, s.begin));
      }
    }
    for (const auto &[id, begin] : c_.flow_begins())
      flow_begins_on_[begin.track].push_back(begin.ts);
    for (auto &[track, times] : flow_begins_on_)
      std::sort(times.begin(), times.end());
    for (auto &[process, list] : releases_)
      std::sort(list.begin(), list.end(),
                [](const Release &a, const Release &b) { return a.end < b.end; });
  }

  /// The path of `step`; nullopt when no process has a slice of it.
  std::optional<CriticalPath> walk(uint64_t step) {
    CriticalPath path;
    path.step = step;
    const StepSpan *last = nullptr;
    for (const auto &[key, span] : c_.step_spans())
      if (key.first == step && (last == nullptr || span.end > last->end)) {
        last = &span;
        path.last = key.second;
      }
    if (last == nullptr) return std::nullopt;
    step_ = step;
    path_ = &path;
    track_ = last->track;
    t_ = last->end;
    path.end = t_;
    const size_t limit = 4 * c_.slice_count() + 64;
    uint64_t previous_t = t_;
    int still = 0;
    for (size_t n = 0; n < limit; ++n) {
      const TrackSlices &track = c_.tracks().at(track_);
      const uint64_t floor = floor_of(track.process);
      if (t_ <= floor) break;
      if (t_ < previous_t) {
        previous_t = t_;
        still = 0;
      } else if (++still > 8) {
        break; // jumps that do not move back in time: give up here
      }
      step_back(track, floor);
    }
    path.begin = t_;
    std::reverse(path.segments.begin(), path.segments.end());
    std::sort(path.waits.begin(), path.waits.end(),
              [](const PathWait &a, const PathWait &b) { return a.at < b.at; });
    for (const PathSegment &s : path.segments)
      path.by_work[static_cast<size_t>(s.work)] += s.end - s.begin;
    return path;
  }

private:
  struct Call {
    prof_track_id track = 0;
    uint32_t index = 0;
    uint64_t begin = 0, arrival = 0;
  };

  uint64_t floor_of(prof_track_id process) const {
    const auto found = c_.step_spans().find({step_, process});
    if (found != c_.step_spans().end()) return found->second.begin;
    for (const StepWindow &w : c_.windows())
      if (w.step == step_) return w.begin;
    return 0;
  }

  /// Adds [begin, t) on the current track and moves t to `begin`.
  void emit(const TrackSlices &track, uint64_t begin, uint32_t slice, PathWork work) {
    begin = std::max(begin, floor_of(track.process));
    if (begin >= t_) return;
    PathSegment segment{begin, t_, track_, track.process, 0, 0, work};
    if (slice != kNone) {
      segment.name = track.slices[slice].name;
      uint32_t top = slice;
      while (track.slices[top].parent != kNone)
        top = track.slices[top].parent;
      if (top != slice) segment.within = track.slices[top].name;
    }
    std::vector<PathSegment> &segments = path_->segments;
    if (!segments.empty() && segments.back().track == segment.track &&
        segments.back().name == segment.name && segments.back().work == segment.work &&
        segments.back().begin == segment.end)
      segments.back().begin = segment.begin;
    else
      segments.push_back(segment);
    t_ = begin;
  }

  /// Whether a flow begins on `track` within `s` (it launched device work).
  bool launches_in(prof_track_id track, const KeptSlice &s) const {
    const auto found = flow_begins_on_.find(track);
    if (found == flow_begins_on_.end()) return false;
    const auto at = std::lower_bound(found->second.begin(), found->second.end(), s.begin);
    return at != found->second.end() && *at <= s.end;
  }

  /// The latest communication call or device work of `process` on another
  /// track that ended in (from, t]; nullptr if none.
  const Release *release_in(prof_track_id process, uint64_t from, bool device_only) const {
    const Release *best = nullptr;
    for (const prof_track_id owner : {process, prof_track_id{0}}) {
      const auto found = releases_.find(owner);
      if (found == releases_.end()) continue;
      const std::vector<Release> &list = found->second;
      auto it = std::upper_bound(list.begin(), list.end(), t_,
                                 [](uint64_t at, const Release &r) { return at < r.end; });
      while (it != list.begin()) {
        --it;
        if (it->end <= from) break;
        if (it->track == track_ || (device_only && !it->device)) continue;
        if (best == nullptr || it->end > best->end) best = &*it;
        break;
      }
      if (owner == 0) break;
    }
    return best;
  }

  void step_back(const TrackSlices &track, uint64_t floor) {
    const Position p = position_at(track, t_);
    if (p.slice == kNone) {
      gap(track, std::max(p.from, floor));
      return;
    }
    const KeptSlice &s = track.slices[p.slice];
    if (s.collective()) {
      collective(track, p);
      return;
    }
    if (track.device) {
      device_work(track, p);
      return;
    }
    switch (s.kind) {
    case PROF_CATEGORY_SYNC:
      if (const Release *r = release_in(track.process, std::max(p.from, s.begin) - 1, true)) {
        jump_after_wait(track, p.slice, *r, PathWork::Waiting);
        return;
      }
      emit(track, p.from, p.slice, PathWork::Waiting);
      return;
    case PROF_CATEGORY_RUNTIME_API:
    case PROF_CATEGORY_DRIVER_API:
      // A call that launched nothing while device work of its process
      // ended in it waited for that work (a stream or device synchronize).
      if (!launches_in(track_, s))
        if (const Release *r = release_in(track.process, std::max(p.from, s.begin) - 1, true)) {
          jump_after_wait(track, p.slice, *r, PathWork::Waiting);
          return;
        }
      emit(track, p.from, p.slice, PathWork::Launch);
      return;
    case PROF_CATEGORY_COMMUNICATION:
      emit(track, p.from, p.slice, PathWork::Communication);
      return;
    default:
      break;
    }
    // An annotation's own time may be a wait for another thread (DDP's
    // main thread waiting for its all-reduces); an operator's is its work.
    if (s.kind == PROF_CATEGORY_ANNOTATION || s.kind == PROF_CATEGORY_OTHER)
      if (const Release *r = release_in(track.process, p.from, false)) {
        jump_after_wait(track, p.slice, *r, PathWork::Untraced);
        return;
      }
    // An annotation's own time is time no recorded call covers.
    emit(track, p.from, p.slice,
         s.kind == PROF_CATEGORY_ANNOTATION ? PathWork::Untraced : PathWork::Host);
  }

  /// The current track from `r`'s end as `work` (a synchronization's
  /// waiting, or a thread's time with nothing recorded until it went on),
  /// then on to `r`'s track.
  void jump_after_wait(const TrackSlices &track, uint32_t slice, const Release &r, PathWork work) {
    emit(track, r.end, slice, work);
    track_ = r.track;
    t_ = std::min(t_, r.end);
  }

  void gap(const TrackSlices &track, uint64_t from) {
    if (track.device) {
      // Device idle between two pieces of work of one queue: the next one
      // started late, a launch cost.
      emit(track, from, kNone,
           from > floor_of(track.process) ? PathWork::Launch : PathWork::Untraced);
      return;
    }
    if (const Release *r = release_in(track.process, from, false)) {
      jump_after_wait(track, kNone, *r, PathWork::Untraced);
      return;
    }
    emit(track, from, kNone, PathWork::Untraced);
  }

  void device_work(const TrackSlices &track, const Position &p) {
    const KeptSlice &s = track.slices[p.slice];
    emit(track, p.from, p.slice,
         s.kind == PROF_CATEGORY_COMMUNICATION ? PathWork::Communication : PathWork::Compute);
    if (t_ != s.begin) return;
    // At its start: it waited for its launch, or for the work before it.
    std::optional<std::pair<prof_track_id, uint64_t>> launch;
    if (const auto end = c_.flow_ends().find({track_, s.begin}); end != c_.flow_ends().end())
      if (const auto begin = c_.flow_begins().find(end->second); begin != c_.flow_begins().end())
        launch = std::make_pair(begin->second.track, begin->second.ts);
    if (!launch && s.correlation != 0)
      if (const auto found = launches_.find(s.correlation); found != launches_.end())
        launch = found->second;
    // A launch on a track with nothing kept (no slice in the step) is not followed.
    if (!launch || launch->second > t_ || !c_.tracks().contains(launch->first)) return;
    const Position before = position_at(track, t_);
    if (before.from > launch->second) return; // queued behind earlier work: the gap says so
    emit(track, launch->second, kNone, PathWork::Launch);
    track_ = launch->first;
    t_ = launch->second;
  }

  void collective(const TrackSlices &track, const Position &p) {
    const KeptSlice &s = track.slices[p.slice];
    const auto op = ops_.find({s.communicator, s.sequence});
    const Call *released_by = nullptr; // the rank that began last
    prof_track_id late_process = 0;
    if (op != ops_.end())
      for (const auto &[process, call] : op->second)
        if (released_by == nullptr || call.begin > released_by->begin) {
          released_by = &call;
          late_process = process;
        }
    if (released_by != nullptr && late_process != track.process && released_by->begin > s.begin &&
        released_by->begin < t_ && p.from <= released_by->begin) {
      emit(track, released_by->begin, p.slice, PathWork::Communication);
      uint64_t others = 0; // the latest arrival of the other ranks
      for (const auto &[process, call] : op->second)
        if (process != late_process) others = std::max(others, call.arrival);
      path_->waits.push_back({released_by->begin, track.process, late_process, s.name,
                              s.communicator, s.sequence, released_by->begin - s.begin,
                              released_by->arrival > others ? released_by->arrival - others : 0});
      track_ = released_by->track;
      t_ = released_by->begin;
      enter_call(c_.tracks().at(track_), released_by->index);
      return;
    }
    emit(track, p.from, p.slice, PathWork::Communication);
    if (op != ops_.end()) came_last(op->second, track.process, s);
    if (t_ == s.begin) enter_call(track, p.slice);
  }

  /// When `process`, on the path, arrived last at the collective `s` of
  /// `calls`: the others waited for it (the path's rank held them up).
  void came_last(const std::map<prof_track_id, Call> &calls, prof_track_id process,
                 const KeptSlice &s) {
    const auto mine = calls.find(process);
    if (mine == calls.end() || calls.size() < 2) return;
    const Call *latest_other = nullptr;
    prof_track_id waiting = 0;
    for (const auto &[other, call] : calls)
      if (other != process && (latest_other == nullptr || call.arrival > latest_other->arrival)) {
        latest_other = &call;
        waiting = other;
      }
    const uint64_t arrival = mine->second.arrival;
    if (arrival <= latest_other->arrival) return;
    for (const PathWait &wait : path_->waits)
      if (wait.communicator == s.communicator && wait.sequence == s.sequence) return;
    path_->waits.push_back({arrival, waiting, process, s.name, s.communicator, s.sequence,
                            arrival - latest_other->arrival, arrival - latest_other->arrival});
  }

  /// At the begin of call `index` on the current track: when it had waited
  /// in a queue, on to what held the queue up, or to where it was issued.
  void enter_call(const TrackSlices &track, uint32_t index) {
    const KeptSlice &s = track.slices[index];
    if (s.arrival >= s.begin) return;
    const Position before = position_at(track, t_);
    if (before.slice != kNone) return; // the queue's thread was busy up to it: on into that
    if (before.from > s.arrival) {
      // Its thread had been busy after it was queued: waiting in the queue.
      emit(track, before.from, kNone, PathWork::Waiting);
      return;
    }
    emit(track, s.arrival, kNone, PathWork::Waiting);
    track_ = issuing_track(track.process, track_, s.arrival);
  }

  /// The thread of `process` that queued a call at `at`: one running a
  /// slice other than communication then, preferring the latest begun.
  prof_track_id issuing_track(prof_track_id process, prof_track_id queue, uint64_t at) const {
    prof_track_id best = queue;
    uint64_t best_begin = 0;
    for (const prof_track_id id : tracks_of_.at(process)) {
      const TrackSlices &track = c_.tracks().at(id);
      if (id == queue || track.device) continue;
      const Position p = position_at(track, at);
      if (p.slice == kNone || track.slices[p.slice].kind == PROF_CATEGORY_COMMUNICATION) continue;
      if (best == queue || track.slices[p.slice].begin > best_begin) {
        best = id;
        best_begin = track.slices[p.slice].begin;
      }
    }
    return best;
  }

  const StepSliceCollector &c_;
  std::map<std::pair<prof_string_id, uint64_t>, std::map<prof_track_id, Call>> ops_;
  std::unordered_map<prof_track_id, std::vector<Release>> releases_;
  std::unordered_map<uint64_t, std::pair<prof_track_id, uint64_t>> launches_;
  std::map<prof_track_id, std::vector<prof_track_id>> tracks_of_;
  std::unordered_map<prof_track_id, std::vector<uint64_t>> flow_begins_on_; ///< sorted times
  uint64_t step_ = 0;
  CriticalPath *path_ = nullptr;
  prof_track_id track_ = 0;
  uint64_t t_ = 0;
};

} // namespace

std::vector<CriticalPath> find_critical_paths(const StepSliceCollector &slices) {
  std::vector<CriticalPath> paths;
  Walker walker(slices);
  for (const StepWindow &window : slices.windows())
    if (std::optional<CriticalPath> path = walker.walk(window.step))
      paths.push_back(std::move(*path));
  std::sort(paths.begin(), paths.end(),
            [](const CriticalPath &a, const CriticalPath &b) { return a.step < b.step; });
  return paths;
}

} // namespace prof::stats
