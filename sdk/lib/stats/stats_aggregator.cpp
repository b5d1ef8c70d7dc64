#include <prof/stats/stats_aggregator.hpp>

#include <algorithm>

namespace prof::stats {

namespace {
/// Copies and sets: what the memcpy reports count.
bool is_copy(uint16_t kind) { return is_memcpy(kind) || kind == PROF_CATEGORY_MEMSET; }
} // namespace

const prof_arg *StatsAggregator::arg_named(const prof_event &e, std::string_view key,
                                           KeyCache &keys) {
  return stats::arg_named(host_, e, key, keys);
}

std::optional<uint64_t> StatsAggregator::unsigned_arg(const prof_event &e, std::string_view name,
                                                      KeyCache &keys) {
  const prof_arg *a = arg_named(e, name, keys);
  if (a == nullptr) return std::nullopt;
  if (a->type == PROF_ARG_UINT) return a->value.u;
  if (a->type == PROF_ARG_INT && a->value.i >= 0) return static_cast<uint64_t>(a->value.i);
  return std::nullopt;
}

std::optional<int64_t> StatsAggregator::signed_arg(const prof_event &e, std::string_view name,
                                                   KeyCache &keys) {
  const prof_arg *a = arg_named(e, name, keys);
  if (a == nullptr) return std::nullopt;
  if (a->type == PROF_ARG_INT) return a->value.i;
  if (a->type == PROF_ARG_UINT && a->value.u <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(a->value.u);
  return std::nullopt;
}

prof_string_id StatsAggregator::string_arg(const prof_event &e, std::string_view name,
                                           KeyCache &keys) {
  const prof_arg *a = arg_named(e, name, keys);
  return a != nullptr && a->type == PROF_ARG_STRING ? a->value.s : 0;
}

std::optional<uint64_t> StatsAggregator::bytes_of(const prof_event &e) {
  return unsigned_arg(e, "bytes", bytes_keys_);
}

prof_string_id StatsAggregator::domain_of(const prof_event &e) {
  return string_arg(e, "domain", domain_keys_);
}

prof_string_id StatsAggregator::communicator_of(const prof_event &e) {
  return string_arg(e, "communicator", communicator_keys_);
}

void StatsAggregator::add_operator(const prof_event &e) {
  OperatorKey key{e.name, string_arg(e, PROF_OPERATOR_ARG_PASS, pass_keys_), 0};
  if (scope_.operator_shapes)
    key.shapes = string_arg(e, PROF_OPERATOR_ARG_INPUT_SHAPES, shapes_keys_);
  OperatorStats &stats = operators_[key];
  stats.durations.add(e.duration);
  stats.self += unsigned_arg(e, PROF_OPERATOR_ARG_SELF, self_keys_).value_or(e.duration);
  if (const auto allocated = signed_arg(e, PROF_OPERATOR_ARG_ALLOCATED, allocated_keys_)) {
    stats.allocated += *allocated;
    stats.self_allocated +=
        signed_arg(e, PROF_OPERATOR_ARG_SELF_ALLOCATED, self_allocated_keys_).value_or(*allocated);
    ++stats.with_memory;
  }
}

prof_track_id StatsAggregator::process_of(prof_track_id track) {
  if (auto found = processes_.find(track); found != processes_.end()) return found->second;
  return processes_[track] = host_.owner_process(track);
}

prof_track_id StatsAggregator::totals_owner(prof_track_id track) {
  if (auto found = totals_owners_.find(track); found != totals_owners_.end()) return found->second;
  prof_track_id owner = process_of(track);
  if (owner == 0) {
    owner = track;
    for (int depth = 0; depth < 64; ++depth) { // bounded: a malformed parent cycle
      const prof_track_desc *desc = host_.track(owner);
      if (desc == nullptr || desc->parent == 0) break;
      owner = desc->parent;
    }
  }
  return totals_owners_[track] = owner;
}

void StatsAggregator::add_to_totals(const prof_event &e) {
  if (e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_OPERATOR) {
    ProcessTotals &totals = process_totals_[totals_owner(e.track)];
    totals.operator_ns += e.duration;
    ++totals.operators;
  } else if (e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_KERNEL &&
             summary_.tracks().place(e.track).device_side) {
    ProcessTotals &totals = process_totals_[totals_owner(e.track)];
    totals.kernel_ns += e.duration;
    ++totals.kernels;
  } else if (e.type == PROF_EVENT_COUNTER) {
    auto known = memory_used_tracks_.find(e.track);
    if (known == memory_used_tracks_.end()) {
      const prof_track_desc *desc = host_.track(e.track);
      known = memory_used_tracks_
                  .emplace(e.track,
                           desc != nullptr && desc->name != nullptr &&
                               std::string_view(desc->name).starts_with(PROF_MEMORY_USED_TRACK))
                  .first;
    }
    if (known->second) {
      ProcessTotals &totals = process_totals_[totals_owner(e.track)];
      totals.device_memory_peak = std::max(totals.device_memory_peak, e.value);
    }
  } else if (e.type == PROF_EVENT_INSTANT && e.category != 0) {
    auto known = heap_peak_categories_.find(e.category);
    if (known == heap_peak_categories_.end())
      known =
          heap_peak_categories_.emplace(e.category, host_.string(e.category) == "heap/peak").first;
    if (!known->second) return;
    if (const auto bytes = bytes_of(e)) {
      ProcessTotals &totals = process_totals_[totals_owner(e.track)];
      totals.heap_peak = std::max(totals.heap_peak, *bytes);
    }
  }
}

void StatsAggregator::add(const prof_event *events, size_t count) {
  const bool device_work =
      scope_.memcpy || scope_.kernels || scope_.timelines || scope_.device_work;
  // Events come in runs per thread (a ring each): the last thread's span is at hand.
  prof_track_id span_track = 0;
  bool span_is_thread = false;
  decltype(thread_spans_)::mapped_type *span = nullptr;
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    summary_.add(e);
    first_ts_ = std::min(first_ts_, e.ts);
    last_ts_ = std::max(last_ts_, e.ts + e.duration);
    if (scope_.annotations) {
      const bool annotation = e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_ANNOTATION;
      if (annotation) {
        AnnotationStats &stats = annotations_[{e.name, domain_of(e), e.category}];
        stats.durations.add(e.duration);
        stats.by_thread[e.track] += e.duration;
      }
      if (e.track != span_track) {
        span_track = e.track;
        span_is_thread = summary_.tracks().place(e.track).kind == PROF_TRACK_THREAD;
        span = span_is_thread ? &thread_spans_[e.track] : nullptr; // nodes never move
      }
      if (annotation && span == nullptr) span = &thread_spans_[e.track];
      if (annotation || span_is_thread) span->add(e.ts, e.ts + e.duration);
    }
    if (scope_.operators && e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_OPERATOR)
      add_operator(e);
    if (scope_.process_totals) add_to_totals(e);
    if (scope_.steps && e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_ANNOTATION)
      if (const auto step = unsigned_arg(e, PROF_STEP_ARG, step_keys_))
        steps_[{*step, process_of(e.track)}].add(e.ts, e.ts + e.duration);
    if (scope_.collectives && e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_COMMUNICATION) {
      const prof_arg *sequence = arg_named(e, "sequence", sequence_keys_);
      const prof_string_id communicator = communicator_of(e);
      if (sequence != nullptr && communicator != 0 &&
          (sequence->type == PROF_ARG_UINT || sequence->type == PROF_ARG_INT)) {
        // A call that waited in a backend's queue arrived when it was queued.
        const prof_arg *queued = arg_named(e, PROF_COMMUNICATION_ARG_QUEUED, queued_keys_);
        const uint64_t wait =
            queued != nullptr && queued->type == PROF_ARG_UINT ? queued->value.u : 0;
        collective_calls_.push_back({communicator, sequence->value.u, process_of(e.track), e.name,
                                     wait <= e.ts ? e.ts - wait : e.ts, e.ts + e.duration,
                                     (e.flags & PROF_SLICE_UNFINISHED) != 0});
      }
    }
    if (scope_.open_work && e.type == PROF_EVENT_SLICE && (e.flags & PROF_SLICE_UNFINISHED) != 0)
      open_slices_.push_back({e, process_of(e.track)});
    if (scope_.open_work && e.type == PROF_EVENT_SAMPLE && e.id != 0 && e.category == 0) {
      latest_samples_[e.track].keep_latest(
          {e.ts, static_cast<prof_stack_id>(e.id), process_of(e.track)});
    }
    // Calls on the host; collective kernels on a device are device work (below).
    if (scope_.overlap && e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_COMMUNICATION &&
        !summary_.tracks().place(e.track).device_side)
      communication_time_[process_of(e.track)].add(e.ts, e.ts + e.duration);
    if (scope_.communication && e.type == PROF_EVENT_SLICE &&
        e.kind == PROF_CATEGORY_COMMUNICATION) {
      CommunicationStats &stats = communication_[{e.name, communicator_of(e), process_of(e.track)}];
      stats.durations.add(e.duration);
      if (const auto bytes = bytes_of(e)) {
        stats.bytes += *bytes;
        ++stats.with_bytes;
      }
    }
    if (scope_.heap && e.type == PROF_EVENT_INSTANT && e.category != 0) {
      auto known = heap_categories_.find(e.category);
      if (known == heap_categories_.end())
        known = heap_categories_.emplace(e.category, host_.string(e.category).starts_with("heap/"))
                    .first;
      if (known->second) heap_events_.push_back(e);
    }
    if (scope_.device_memory) {
      if (e.type == PROF_EVENT_INSTANT && e.kind == PROF_CATEGORY_MEMORY)
        memory_.add_event(e, summary_.tracks().place(e.track).device);
      else if (e.type == PROF_EVENT_SLICE && e.id != 0 &&
               !summary_.tracks().place(e.track).device_side)
        memory_.add_call(e); // device work repeats its call's id
    }
    if (scope_.launches && e.type == PROF_EVENT_SLICE) {
      const TrackPlace place = summary_.tracks().place(e.track);
      launches_.add(e, place.device_side, place.device);
    }
    if (e.type == PROF_EVENT_SLICE && device_work) {
      const TrackPlace place = summary_.tracks().place(e.track);
      if (!place.device_side) continue;
      if (scope_.timelines) {
        auto timeline = timelines_.find(place.device);
        if (timeline == timelines_.end())
          timeline = timelines_.emplace(place.device, BusyTimeline(scope_.timeline_join_gap)).first;
        timeline->second.add(e.ts, e.ts + e.duration);
      }
      ++device_slices_;
      uncategorized_device_slices_ += e.kind == PROF_CATEGORY_OTHER;
      if (scope_.device_work) device_work_[{process_of(e.track), e.name, e.kind}].add(e.duration);
      if (scope_.overlap)
        if (const prof_track_id owner = process_of(e.track); owner != 0) {
          process_busy_[{place.device, owner}].add(e.ts, e.ts + e.duration);
          if (e.kind == PROF_CATEGORY_KERNEL)
            process_compute_[{place.device, owner}].add(e.ts, e.ts + e.duration);
          if (e.kind == PROF_CATEGORY_COMMUNICATION)
            process_device_communication_[{place.device, owner}].add(e.ts, e.ts + e.duration);
        }
      if (scope_.kernels && e.kind == PROF_CATEGORY_KERNEL) kernels_[e.name].add(e.duration);
      if (scope_.overlap && e.kind == PROF_CATEGORY_KERNEL)
        compute_[place.device].add(e.ts, e.ts + e.duration);
      if (scope_.overlap && e.kind == PROF_CATEGORY_COMMUNICATION)
        device_communication_[place.device].add(e.ts, e.ts + e.duration);
      if (scope_.memcpy && is_copy(e.kind)) {
        memcpy_[e.name].add(e.duration);
        if (const auto bytes = bytes_of(e)) memcpy_bytes_[e.kind].add(static_cast<double>(*bytes));
      }
    } else if (e.type == PROF_EVENT_SAMPLE && scope_.functions && e.id != 0 && e.category == 0) {
      // CPU samples only, as in the summary: a stack with a category belongs
      // to something else (e.g. a blocking call's slice).
      functions_.add(static_cast<prof_stack_id>(e.id));
    }
  }
}

void StatsAggregator::merge(StatsAggregator &other) {
  summary_.merge(other.summary_);
  for (const auto &[name, stats] : other.memcpy_)
    memcpy_[name].merge(stats);
  for (const auto &[name, stats] : other.kernels_)
    kernels_[name].merge(stats);
  for (const auto &[kind, stats] : other.memcpy_bytes_)
    memcpy_bytes_[kind].merge(stats);
  device_slices_ += other.device_slices_;
  uncategorized_device_slices_ += other.uncategorized_device_slices_;
  for (auto &[device, timeline] : other.timelines_) {
    auto mine = timelines_.find(device);
    if (mine == timelines_.end())
      mine = timelines_.emplace(device, BusyTimeline(scope_.timeline_join_gap)).first;
    mine->second.merge(timeline);
  }
  for (auto &[process, timeline] : other.communication_time_)
    communication_time_[process].merge(timeline);
  for (auto &[device, timeline] : other.compute_)
    compute_[device].merge(timeline);
  for (auto &[key, timeline] : other.process_compute_)
    process_compute_[key].merge(timeline);
  for (auto &[key, timeline] : other.process_busy_)
    process_busy_[key].merge(timeline);
  for (auto &[device, timeline] : other.device_communication_)
    device_communication_[device].merge(timeline);
  for (auto &[key, timeline] : other.process_device_communication_)
    process_device_communication_[key].merge(timeline);
  for (const auto &[key, stats] : other.device_work_)
    device_work_[key].merge(stats);
  for (const auto &[owner, totals] : other.process_totals_)
    process_totals_[owner].merge(totals);
  functions_.merge(other.functions_);
  memory_.merge(other.memory_);
  launches_.merge(other.launches_);
  for (const auto &[key, stats] : other.annotations_)
    annotations_[key].merge(stats);
  for (const auto &[key, stats] : other.communication_)
    communication_[key].merge(stats);
  collective_calls_.insert(collective_calls_.end(), other.collective_calls_.begin(),
                           other.collective_calls_.end());
  heap_events_.insert(heap_events_.end(), other.heap_events_.begin(), other.heap_events_.end());
  open_slices_.insert(open_slices_.end(), other.open_slices_.begin(), other.open_slices_.end());
  for (const auto &[track, sample] : other.latest_samples_) {
    latest_samples_[track].keep_latest(sample);
  }
  for (const auto &[key, stats] : other.operators_)
    operators_[key].merge(stats);
  for (const auto &[key, span] : other.steps_)
    steps_[key].add(span.first, span.last);
  for (const auto &[track, span] : other.thread_spans_)
    thread_spans_[track].add(span.first, span.last);
  first_ts_ = std::min(first_ts_, other.first_ts_);
  last_ts_ = std::max(last_ts_, other.last_ts_);
}

uint64_t report_time_origin(const StatsAggregator &aggregator, const ExportHost &host) {
  const prof_session_info &session = host.session();
  if (session.struct_size >= offsetof(prof_session_info, start_ns) + sizeof(session.start_ns) &&
      session.start_ns != 0 && session.start_ns <= aggregator.first_ts())
    return session.start_ns;
  return aggregator.first_ts();
}

} // namespace prof::stats
