#include <prof/stats/aggregator_wire.hpp>

#include <prof/byte_codec.hpp>

#include <cstring>
#include <type_traits>

namespace prof::stats {
namespace {

// "PRS7": with per-process totals. Every rank runs the same binary, so a
// new version of the bytes only needs a new magic.
constexpr uint32_t kMagic = 0x37535250;

void put(ByteWriter &out, const DurationStats &d) {
  out.varint(d.calls);
  out.varint(d.total);
  out.u64(d.min);
  out.varint(d.max);
}
DurationStats get_duration(ByteReader &in) {
  DurationStats d;
  d.calls = in.varint();
  d.total = in.varint();
  d.min = in.u64();
  d.max = in.varint();
  return d;
}

void put(ByteWriter &out, const CounterStats &c) {
  out.varint(c.samples);
  out.f64(c.sum);
  out.f64(c.min);
  out.f64(c.max);
}
CounterStats get_counter(ByteReader &in) {
  CounterStats c;
  c.samples = in.varint();
  c.sum = in.f64();
  c.min = in.f64();
  c.max = in.f64();
  return c;
}

void put(ByteWriter &out, BusyTimeline &timeline) {
  const std::vector<Period> &periods = timeline.periods();
  out.varint(periods.size());
  for (const Period &p : periods) {
    out.varint(p.begin);
    out.varint(p.end - p.begin);
  }
}
void get_into(ByteReader &in, BusyTimeline &timeline, const WireIds &ids) {
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const uint64_t begin = ids.time(in.varint());
    timeline.add(begin, begin + in.varint());
  }
}

void put(ByteWriter &out, std::map<prof_track_id, BusyTimeline> &timelines) {
  out.varint(timelines.size());
  for (auto &[track, timeline] : timelines) {
    out.varint(track);
    put(out, timeline);
  }
}
template <typename MakeTimeline>
void get_into(ByteReader &in, std::map<prof_track_id, BusyTimeline> &timelines, const WireIds &ids,
              MakeTimeline make) {
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_track_id track = ids.track(in.varint32());
    auto it = timelines.find(track);
    if (it == timelines.end()) it = timelines.emplace(track, make()).first;
    get_into(in, it->second, ids);
  }
}

void put(ByteWriter &out, std::map<DeviceProcess, BusyTimeline> &timelines) {
  out.varint(timelines.size());
  for (auto &[key, timeline] : timelines) {
    out.varint(key.device);
    out.varint(key.process);
    put(out, timeline);
  }
}
void get_into(ByteReader &in, std::map<DeviceProcess, BusyTimeline> &timelines,
              const WireIds &ids) {
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    DeviceProcess key;
    key.device = ids.track(in.varint32());
    key.process = ids.track(in.varint32());
    get_into(in, timelines[key], ids);
  }
}

/// A recorded event's ids and time as the receiver's.
void translate(prof_event &e, const WireIds &ids) {
  e.ts = ids.time(e.ts);
  e.track = ids.track(e.track);
  e.name = ids.string(e.name);
  e.category = ids.string(e.category);
  if (e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT)
    e.args = ids.args(static_cast<prof_args_id>(e.args));
}

// Plain records (prof_event): as they lie in memory, since every rank runs
// the same binary.
template <typename T> void put_raw(ByteWriter &out, const std::vector<T> &items) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.varint(items.size());
  out.bytes(items.data(), items.size() * sizeof(T));
}
template <typename T> void get_raw(ByteReader &in, std::vector<T> &items) {
  const size_t n = in.count();
  const auto bytes = in.bytes(n * sizeof(T));
  if (!in.ok() || n == 0) return;
  const size_t first = items.size();
  items.resize(first + n);
  std::memcpy(items.data() + first, bytes.data(), bytes.size());
}

} // namespace

std::vector<uint8_t> AggregatorWire::save(StatsAggregator &a) {
  std::vector<uint8_t> bytes;
  ByteWriter out(bytes);
  out.u32(kMagic);
  out.u64(a.first_ts_);
  out.u64(a.last_ts_);

  const SummaryAggregator &summary = a.summary_;
  out.varint(summary.events_seen_);
  out.varint(summary.activities_.size());
  for (const auto &[key, stats] : summary.activities_) {
    out.u8(static_cast<uint8_t>(key.group));
    out.varint(key.device);
    out.varint(key.name);
    put(out, stats);
  }
  out.varint(summary.counters_.size());
  for (const auto &[track, stats] : summary.counters_) {
    out.varint(track);
    put(out, stats);
  }

  for (const auto *by_name : {&a.memcpy_, &a.kernels_}) {
    out.varint(by_name->size());
    for (const auto &[name, stats] : *by_name) {
      out.varint(name);
      put(out, stats);
    }
  }
  out.varint(a.memcpy_bytes_.size());
  for (const auto &[kind, stats] : a.memcpy_bytes_) {
    out.u16(kind);
    put(out, stats);
  }
  out.varint(a.device_slices_);
  out.varint(a.uncategorized_device_slices_);

  out.varint(a.annotations_.size());
  for (const auto &[key, stats] : a.annotations_) {
    out.varint(key.name);
    out.varint(key.domain);
    out.varint(key.category);
    put(out, stats.durations);
    out.varint(stats.by_thread.size());
    for (const auto &[track, total] : stats.by_thread) {
      out.varint(track);
      out.varint(total);
    }
  }
  out.varint(a.thread_spans_.size());
  for (const auto &[track, span] : a.thread_spans_) {
    out.varint(track);
    out.u64(span.first);
    out.u64(span.last);
  }
  out.varint(a.communication_.size());
  for (const auto &[key, stats] : a.communication_) {
    out.varint(key.name);
    out.varint(key.communicator);
    out.varint(key.process);
    put(out, stats.durations);
    out.varint(stats.bytes);
    out.varint(stats.with_bytes);
  }
  out.varint(a.collective_calls_.size());
  for (const CollectiveCall &call : a.collective_calls_) {
    out.varint(call.communicator);
    out.varint(call.sequence);
    out.varint(call.process);
    out.varint(call.name);
    out.varint(call.begin);
    out.varint(call.end);
    out.u8(call.unfinished ? 1 : 0);
  }
  put_raw(out, a.heap_events_);
  put_raw(out, a.open_slices_);
  out.varint(a.latest_samples_.size());
  for (const auto &[track, sample] : a.latest_samples_) {
    out.varint(track);
    out.varint(sample.ts);
    out.varint(sample.stack);
    out.varint(sample.process);
  }
  put(out, a.timelines_);
  put(out, a.communication_time_);
  put(out, a.compute_);
  put(out, a.process_compute_);
  put(out, a.process_busy_);
  put(out, a.device_communication_);
  put(out, a.process_device_communication_);
  out.varint(a.device_work_.size());
  for (const auto &[key, stats] : a.device_work_) {
    out.varint(key.process);
    out.varint(key.name);
    out.varint(key.kind);
    put(out, stats);
  }

  out.varint(a.functions_.samples_);
  out.varint(a.functions_.samples_by_stack_.size());
  for (const auto &[stack, count] : a.functions_.samples_by_stack_) {
    out.varint(stack);
    out.varint(count);
  }
  put_raw(out, a.memory_.ops_);
  put_raw(out, a.launches_.calls_);
  put_raw(out, a.launches_.work_);
  out.varint(a.launches_.left_out_);
  out.varint(a.memory_.calls_.size());
  for (const auto &[correlation, call] : a.memory_.calls_) {
    out.varint(correlation);
    out.varint(call.name);
    out.varint(call.track);
  }
  out.varint(a.operators_.size());
  for (const auto &[key, stats] : a.operators_) {
    out.varint(key.name);
    out.varint(key.pass);
    out.varint(key.shapes);
    put(out, stats.durations);
    out.varint(stats.self);
    out.svarint(stats.allocated);
    out.svarint(stats.self_allocated);
    out.varint(stats.with_memory);
  }
  out.varint(a.steps_.size());
  for (const auto &[key, span] : a.steps_) {
    out.varint(key.step);
    out.varint(key.process);
    out.u64(span.first);
    out.u64(span.last);
  }
  out.varint(a.process_totals_.size());
  for (const auto &[owner, totals] : a.process_totals_) {
    out.varint(owner);
    out.varint(totals.operator_ns);
    out.varint(totals.operators);
    out.varint(totals.kernel_ns);
    out.varint(totals.kernels);
    out.f64(totals.device_memory_peak);
    out.varint(totals.heap_peak);
  }
  return bytes;
}

bool AggregatorWire::load(std::span<const uint8_t> bytes, StatsAggregator &into) {
  return load(bytes, into, WireIds());
}

bool AggregatorWire::load(std::span<const uint8_t> bytes, StatsAggregator &into,
                          const WireIds &ids) {
  StatsAggregator a(into.host_, into.scope_);
  ByteReader in(bytes);
  if (in.u32() != kMagic) return false;
  a.first_ts_ = in.u64();
  a.last_ts_ = in.u64();
  if (a.first_ts_ <= a.last_ts_) {
    a.first_ts_ = ids.time(a.first_ts_);
    a.last_ts_ = ids.time(a.last_ts_);
  }

  SummaryAggregator &summary = a.summary_;
  summary.events_seen_ = in.varint();
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const uint8_t group = in.u8();
    if (group > static_cast<uint8_t>(ActivityGroup::Operators)) return false;
    ActivityKey key{static_cast<ActivityGroup>(group), 0, 0};
    key.device = ids.track(in.varint32());
    key.name = ids.string(in.varint32());
    summary.activities_[key].merge(get_duration(in));
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_track_id track = ids.track(in.varint32());
    summary.counters_[track].merge(get_counter(in));
  }

  for (auto *by_name : {&a.memcpy_, &a.kernels_})
    for (size_t n = in.count(); n > 0 && in.ok(); --n) {
      const prof_string_id name = ids.string(in.varint32());
      (*by_name)[name].merge(get_duration(in));
    }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const uint16_t kind = in.u16();
    a.memcpy_bytes_[kind].merge(get_counter(in));
  }
  a.device_slices_ = in.varint();
  a.uncategorized_device_slices_ = in.varint();

  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    AnnotationKey key;
    key.name = ids.string(in.varint32());
    key.domain = ids.string(in.varint32());
    key.category = ids.string(in.varint32());
    AnnotationStats &stats = a.annotations_[key];
    stats.durations.merge(get_duration(in));
    for (size_t threads = in.count(); threads > 0 && in.ok(); --threads) {
      const prof_track_id track = ids.track(in.varint32());
      stats.by_thread[track] += in.varint();
    }
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_track_id track = ids.track(in.varint32());
    const uint64_t first = ids.time(in.u64());
    a.thread_spans_[track].add(first, ids.time(in.u64()));
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    CommunicationKey key;
    key.name = ids.string(in.varint32());
    key.communicator = ids.string(in.varint32());
    key.process = ids.track(in.varint32());
    CommunicationStats stats;
    stats.durations = get_duration(in);
    stats.bytes = in.varint();
    stats.with_bytes = in.varint();
    a.communication_[key].merge(stats);
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    CollectiveCall call;
    call.communicator = ids.string(in.varint32());
    call.sequence = in.varint();
    call.process = ids.track(in.varint32());
    call.name = ids.string(in.varint32());
    call.begin = ids.time(in.varint());
    call.end = ids.time(in.varint());
    call.unfinished = in.u8() != 0;
    a.collective_calls_.push_back(call);
  }
  get_raw(in, a.heap_events_);
  for (prof_event &e : a.heap_events_)
    translate(e, ids);
  get_raw(in, a.open_slices_);
  for (OpenSlice &slice : a.open_slices_) {
    translate(slice.event, ids);
    slice.process = ids.track(slice.process);
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_track_id track = ids.track(in.varint32());
    LatestSample sample;
    sample.ts = ids.time(in.varint());
    sample.stack = ids.stack(in.varint32());
    sample.process = ids.track(in.varint32());
    a.latest_samples_[track].keep_latest(sample);
  }
  const uint64_t join_gap = a.scope_.timeline_join_gap;
  get_into(in, a.timelines_, ids, [join_gap] { return BusyTimeline(join_gap); });
  get_into(in, a.communication_time_, ids, [] { return BusyTimeline(); });
  get_into(in, a.compute_, ids, [] { return BusyTimeline(); });
  get_into(in, a.process_compute_, ids);
  get_into(in, a.process_busy_, ids);
  get_into(in, a.device_communication_, ids, [] { return BusyTimeline(); });
  get_into(in, a.process_device_communication_, ids);
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    DeviceWorkKey key;
    key.process = ids.track(in.varint32());
    key.name = ids.string(in.varint32());
    key.kind = static_cast<uint16_t>(in.varint());
    a.device_work_[key].merge(get_duration(in));
  }

  a.functions_.samples_ = in.varint();
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_stack_id stack = ids.stack(in.varint32());
    a.functions_.samples_by_stack_[stack] += in.varint();
  }
  get_raw(in, a.memory_.ops_);
  for (MemoryOp &op : a.memory_.ops_) {
    op.ts = ids.time(op.ts);
    op.device = ids.track(op.device);
    op.memory = ids.string(op.memory);
  }
  get_raw(in, a.launches_.calls_);
  for (LaunchCall &call : a.launches_.calls_) {
    call.ts = ids.time(call.ts);
    call.name = ids.string(call.name);
    call.track = ids.track(call.track);
  }
  get_raw(in, a.launches_.work_);
  for (LaunchWork &work : a.launches_.work_) {
    work.ts = ids.time(work.ts);
    work.name = ids.string(work.name);
    work.device = ids.track(work.device);
  }
  a.launches_.left_out_ = in.varint();
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const uint64_t correlation = in.varint();
    MemoryCall call;
    call.name = ids.string(in.varint32());
    call.track = ids.track(in.varint32());
    a.memory_.calls_.emplace(correlation, call);
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    OperatorKey key;
    key.name = ids.string(in.varint32());
    key.pass = ids.string(in.varint32());
    key.shapes = ids.string(in.varint32());
    OperatorStats stats;
    stats.durations = get_duration(in);
    stats.self = in.varint();
    stats.allocated = in.svarint();
    stats.self_allocated = in.svarint();
    stats.with_memory = in.varint();
    a.operators_[key].merge(stats);
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    StepKey key;
    key.step = in.varint();
    key.process = ids.track(in.varint32());
    const uint64_t first = ids.time(in.u64());
    a.steps_[key].add(first, ids.time(in.u64()));
  }
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const prof_track_id owner = ids.track(in.varint32());
    ProcessTotals totals;
    totals.operator_ns = in.varint();
    totals.operators = in.varint();
    totals.kernel_ns = in.varint();
    totals.kernels = in.varint();
    totals.device_memory_peak = in.f64();
    totals.heap_peak = in.varint();
    a.process_totals_[owner].merge(totals);
  }
  if (!in.ok() || !in.at_end()) return false;
  into.merge(a);
  return true;
}

} // namespace prof::stats
