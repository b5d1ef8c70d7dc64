// Everything `prof stats` computes in one pass over a report's events: the
// summary's activity and counter statistics, memory-copy statistics, each
// device's busy timeline, device memory events, the CPU function view,
// framework operators and training steps. One aggregator per worker thread,
// merged at the end; keyed by ids, resolved only to print.
#pragma once

#include <prof/stats/activity_stats.hpp>
#include <prof/stats/busy_timeline.hpp>
#include <prof/stats/function_view.hpp>
#include <prof/stats/launch_log.hpp>
#include <prof/stats/memory_log.hpp>
#include <prof/stats/summary_aggregator.hpp>

#include <prof/plugin.hpp>
#include <prof/stats/arg_keys.hpp>

#include <algorithm>
#include <compare>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::stats {

/// Annotation ranges of one name and domain: their durations, and their
/// total on each track (thread) they ran on.
struct AnnotationStats {
  DurationStats durations;
  std::map<prof_track_id, uint64_t> by_thread;
  void merge(const AnnotationStats &other) {
    durations.merge(other.durations);
    for (const auto &[track, total] : other.by_thread)
      by_thread[track] += total;
  }
};

/// What annotation ranges are summed by: name, `domain` argument (0: none)
/// and category string (the source's: "nvtx", "python/DOMAIN").
struct AnnotationKey {
  prof_string_id name = 0, domain = 0, category = 0;
  auto operator<=>(const AnnotationKey &) const = default;
};

/// Communication calls (MPI, collective libraries) of one name on one
/// communicator by one process.
struct CommunicationKey {
  prof_string_id name = 0;
  prof_string_id communicator = 0; ///< the `communicator` argument, 0 if none
  prof_track_id process = 0;       ///< the process track above the call's track, 0 if none
  auto operator<=>(const CommunicationKey &) const = default;
};
struct CommunicationStats {
  DurationStats durations;
  uint64_t bytes = 0;      ///< the sum of their `bytes` arguments
  uint64_t with_bytes = 0; ///< calls that had one
  void merge(const CommunicationStats &other) {
    durations.merge(other.durations);
    bytes += other.bytes;
    with_bytes += other.with_bytes;
  }
};

/// One rank's part in a collective operation: a communication slice with a
/// `communicator` and a `sequence` argument (its order on the communicator).
struct CollectiveCall {
  prof_string_id communicator = 0;
  uint64_t sequence = 0;
  prof_track_id process = 0;
  prof_string_id name = 0;
  uint64_t begin = 0;      ///< its arrival: its begin, less its `queued` argument
  uint64_t end = 0;        ///< its end; an unfinished call's is the dump's time
  bool unfinished = false; ///< still open when a flight-recorder dump was written
};

/// A slice still open when a flight-recorder dump was written
/// (PROF_SLICE_UNFINISHED): it ends at the dump.
struct OpenSlice {
  prof_event event;
  prof_track_id process = 0; ///< the process track above its track, 0 if none
};

/// The latest CPU sample of one thread.
struct LatestSample {
  uint64_t ts = 0;
  prof_stack_id stack = 0;
  prof_track_id process = 0;
  /// Takes `other` when it is as late or later (or this one is empty).
  void keep_latest(const LatestSample &other) {
    if (stack == 0 || other.ts >= ts) *this = other;
  }
};

/// Framework operators (slices of kind PROF_CATEGORY_OPERATOR) are summed
/// by name, pass and, when StatsScope::operator_shapes asks, input shapes.
struct OperatorKey {
  prof_string_id name = 0;
  prof_string_id pass = 0;   ///< the `pass` argument, 0 if none (forward)
  prof_string_id shapes = 0; ///< the `input shapes` argument, 0 if none or not kept
  auto operator<=>(const OperatorKey &) const = default;
};
/// Calls of one operator: their durations, their self time and, where
/// they say it, the memory they kept.
struct OperatorStats {
  DurationStats durations;
  uint64_t self = 0;     ///< the sum of their `self` arguments, a duration for a call without one
  int64_t allocated = 0; ///< the sum of their `allocated` arguments
  int64_t self_allocated = 0; ///< of their `self allocated` arguments
  uint64_t with_memory = 0;   ///< calls that said `allocated`
  void merge(const OperatorStats &other) {
    durations.merge(other.durations);
    self += other.self;
    allocated += other.allocated;
    self_allocated += other.self_allocated;
    with_memory += other.with_memory;
  }
};

/// One step (annotation slices with a `step` argument) of one process.
struct StepKey {
  uint64_t step = 0;
  prof_track_id process = 0; ///< the process track above the slices' tracks, 0 if none
  auto operator<=>(const StepKey &) const = default;
};

/// Device work of one name and category by the process that owns its track
/// (ProcessOwner: prof_track_desc::pid, ABI 1.10), 0 for work of no process.
struct DeviceWorkKey {
  prof_track_id process = 0;
  prof_string_id name = 0;
  uint16_t kind = PROF_CATEGORY_OTHER; ///< the slices' well-known category
  auto operator<=>(const DeviceWorkKey &) const = default;
};

/// A device and a process that owns work on it.
struct DeviceProcess {
  prof_track_id device = 0;  ///< the enclosing DEVICE track, 0 if none
  prof_track_id process = 0; ///< the owner's process track
  auto operator<=>(const DeviceProcess &) const = default;
};

/// The time a thread was seen: from its first event to its last event's end.
struct ThreadSpan {
  uint64_t first = std::numeric_limits<uint64_t>::max();
  uint64_t last = 0;
  void add(uint64_t begin, uint64_t end) {
    first = std::min(first, begin);
    last = std::max(last, end);
  }
  uint64_t length() const { return last > first ? last - first : 0; }
};

/// One process's totals, for comparing ranks (StatsScope::process_totals).
struct ProcessTotals {
  uint64_t operator_ns = 0; ///< its framework operators' durations, nested ones each in full
  uint64_t operators = 0;
  uint64_t kernel_ns = 0; ///< its device slices of the kernel category
  uint64_t kernels = 0;
  double device_memory_peak = 0; ///< the largest sample of its "Memory used" counters (bytes)
  uint64_t heap_peak = 0;        ///< the `bytes` of its "heap/peak" instant
  void merge(const ProcessTotals &other) {
    operator_ns += other.operator_ns;
    operators += other.operators;
    kernel_ns += other.kernel_ns;
    kernels += other.kernels;
    device_memory_peak = std::max(device_memory_peak, other.device_memory_peak);
    heap_peak = std::max(heap_peak, other.heap_peak);
  }
};

/// What to keep beyond the activity and counter statistics.
struct StatsScope {
  bool memcpy = false;        ///< memory-copy statistics by name
  bool kernels = false;       ///< device kernels by name
  bool timelines = false;     ///< per-device busy timelines
  bool functions = false;     ///< the CPU function view
  bool annotations = false;   ///< annotation slices by name, domain and category; thread spans
  bool device_memory = false; ///< memory events and the host calls they name
  bool communication = false; ///< communication slices by name, communicator and process
  bool collectives = false;   ///< each collective call with its communicator and sequence
  bool heap = false;          ///< the memory source's summary instants (category heap/...)
  /// When each process communicated and each device computed (overlap, idle);
  /// needs `timelines` for the devices' busy time.
  bool overlap = false;
  bool operators = false;       ///< framework operators by name and pass
  bool operator_shapes = false; ///< and by input shapes (with `operators`)
  bool steps = false;           ///< the span of each step in each process
  /// Device slices by owner process, name and category (device_work()).
  bool device_work = false;
  /// Slices open at a dump and each thread's latest CPU sample (with
  /// `collectives`: what a hang report needs).
  bool open_work = false;
  /// API calls, device work and waits with correlation ids (launches()).
  bool launches = false;
  /// Per-process totals of operators, kernels and memory (process_totals()).
  bool process_totals = false;
  /// Busy periods closer than this are joined (see BusyTimeline); 0 keeps
  /// them exact, as utilization needs.
  uint64_t timeline_join_gap = 0;
};

class StatsAggregator {
  friend struct AggregatorWire; // its bytes, for `prof stats` over MPI

public:
  StatsAggregator(const ExportHost &host, StatsScope scope)
      : host_(host), scope_(scope), summary_(host), memory_(host), launches_(host) {}

  void add(const prof_event *events, size_t count);
  /// Adds what `other` has seen (its timelines are moved out).
  void merge(StatsAggregator &other);

  const StatsScope &scope() const { return scope_; }
  const SummaryAggregator &summary() const { return summary_; }
  /// Device slices that are memory copies or sets, by name.
  const std::unordered_map<prof_string_id, DurationStats> &memcpy() const { return memcpy_; }
  /// Device slices of the kernel category, by name.
  const std::unordered_map<prof_string_id, DurationStats> &kernels() const { return kernels_; }
  /// Their `bytes` arguments, by well-known category (a copy's direction, memset).
  const std::map<uint16_t, CounterStats> &memcpy_bytes() const { return memcpy_bytes_; }
  /// Device slices, and those without a well-known category. When none has
  /// one (a report written before plugin ABI 1.5, or a source that tags
  /// nothing), copies among them are not known as copies.
  uint64_t device_slices() const { return device_slices_; }
  uint64_t uncategorized_device_slices() const { return uncategorized_device_slices_; }
  /// Busy timelines by enclosing DEVICE track (0: device slices outside one).
  std::map<prof_track_id, BusyTimeline> &timelines() { return timelines_; }
  const FunctionView &functions() const { return functions_; }
  /// Slices of the annotation category by name, domain and category string.
  const std::map<AnnotationKey, AnnotationStats> &annotations() const { return annotations_; }
  /// Spans of thread tracks, and of other tracks annotation slices are on.
  const std::unordered_map<prof_track_id, ThreadSpan> &thread_spans() const {
    return thread_spans_;
  }

  /// Slices of the communication category by name, communicator and process.
  const std::map<CommunicationKey, CommunicationStats> &communication() const {
    return communication_;
  }

  /// When each process was in communication calls on the host, by process
  /// track (0: calls under no process); communication on devices is in
  /// device_communication().
  std::map<prof_track_id, BusyTimeline> &communication_time() { return communication_time_; }
  /// When each device ran kernels, by DEVICE track.
  std::map<prof_track_id, BusyTimeline> &compute() { return compute_; }
  /// When each device ran kernels of each process that owns work on it (with
  /// `overlap`); only device work on tracks a process owns.
  std::map<DeviceProcess, BusyTimeline> &process_compute() { return process_compute_; }
  /// When each device ran communication work (collective kernels: device
  /// slices of the communication category), by DEVICE track (with `overlap`).
  std::map<prof_track_id, BusyTimeline> &device_communication() { return device_communication_; }
  /// The same by device and the process that owns the work's track (with
  /// `overlap`); only device work on tracks a process owns.
  std::map<DeviceProcess, BusyTimeline> &process_device_communication() {
    return process_device_communication_;
  }
  /// When each device was busy with each owner process's work (with `overlap`).
  std::map<DeviceProcess, BusyTimeline> &process_busy() { return process_busy_; }

  /// Device slices by the process that owns their track, name and category
  /// (with StatsScope::device_work).
  const std::map<DeviceWorkKey, DurationStats> &device_work() const { return device_work_; }

  /// Every collective call (see CollectiveCall), in no order.
  const std::vector<CollectiveCall> &collective_calls() const { return collective_calls_; }
  /// Keeps the collective calls `keep` accepts (a summary keeps the same
  /// operations of every rank); returns how many were left out.
  template <typename Keep> size_t keep_collective_calls(Keep keep) {
    return std::erase_if(collective_calls_, [&keep](const CollectiveCall &c) { return !keep(c); });
  }

  /// Slices open at a flight-recorder dump, in no order.
  const std::vector<OpenSlice> &open_slices() const { return open_slices_; }
  /// Each thread's latest CPU sample, by thread track.
  const std::unordered_map<prof_track_id, LatestSample> &latest_samples() const {
    return latest_samples_;
  }

  /// Framework operators by name, pass and (if kept) input shapes.
  const std::map<OperatorKey, OperatorStats> &operators() const { return operators_; }
  /// Each process's span of each step: from the earliest begin of its
  /// slices with that `step` argument to their latest end.
  const std::map<StepKey, ThreadSpan> &steps() const { return steps_; }
  /// Keeps the steps `keep` accepts (by their key); returns how many went.
  template <typename Keep> size_t keep_steps(Keep keep) {
    return std::erase_if(steps_, [&keep](const auto &entry) { return !keep(entry.first); });
  }

  /// Totals by the process whose work a track holds (ExportHost::owner_process),
  /// or, for a track of no process, by its top-level track: in a merged
  /// report a rank's device, whose name carries the rank's merge label
  /// (with StatsScope::process_totals).
  const std::unordered_map<prof_track_id, ProcessTotals> &process_totals() const {
    return process_totals_;
  }

  /// The memory source's summary instants (category strings "heap/..."),
  /// in no order.
  const std::vector<prof_event> &heap_events() const { return heap_events_; }

  /// Memory events of devices, in report order, and the calls they name.
  const MemoryLog &memory() const { return memory_; }
  /// API calls and the work and waits that name them (with `launches`).
  const LaunchLog &launches() const { return launches_; }

  /// Earliest timestamp and latest end over all events; first > last when none.
  uint64_t first_ts() const { return first_ts_; }
  uint64_t last_ts() const { return last_ts_; }

private:
  /// Keys of arguments, by id: whether the key reads the name cached with it.
  using KeyCache = ArgKeyCache;
  /// The event's argument whose key reads `key`; nullptr if none.
  const prof_arg *arg_named(const prof_event &e, std::string_view key, KeyCache &keys);
  /// The event's `bytes` argument, if it has one.
  std::optional<uint64_t> bytes_of(const prof_event &e);
  /// The event's `domain` argument, 0 if none.
  prof_string_id domain_of(const prof_event &e);
  /// The event's `communicator` argument, 0 if none.
  prof_string_id communicator_of(const prof_event &e);
  /// The event's `name` argument as an unsigned number, if it has one that
  /// is an unsigned or non-negative integer.
  std::optional<uint64_t> unsigned_arg(const prof_event &e, std::string_view name, KeyCache &keys);
  /// A signed or unsigned (at most INT64_MAX) argument's value.
  std::optional<int64_t> signed_arg(const prof_event &e, std::string_view name, KeyCache &keys);
  /// The event's `name` argument if it is a string, else 0.
  prof_string_id string_arg(const prof_event &e, std::string_view name, KeyCache &keys);
  /// Adds an operator slice.
  void add_operator(const prof_event &e);
  /// The process track at or above `track`, or the one its owner names
  /// (ExportHost::owner_process), 0 if none (cached).
  prof_track_id process_of(prof_track_id track);
  /// process_of(track), else the top-level track above `track` (cached).
  prof_track_id totals_owner(prof_track_id track);
  /// Adds `e` to process_totals_.
  void add_to_totals(const prof_event &e);

  ExportHost host_;
  StatsScope scope_;
  SummaryAggregator summary_;
  std::unordered_map<prof_string_id, DurationStats> memcpy_;
  std::unordered_map<prof_string_id, DurationStats> kernels_;
  std::map<uint16_t, CounterStats> memcpy_bytes_;
  uint64_t device_slices_ = 0;
  uint64_t uncategorized_device_slices_ = 0;
  KeyCache bytes_keys_, domain_keys_, communicator_keys_, sequence_keys_, queued_keys_;
  KeyCache pass_keys_, self_keys_, shapes_keys_, step_keys_, allocated_keys_, self_allocated_keys_;
  std::map<AnnotationKey, AnnotationStats> annotations_;
  std::unordered_map<prof_track_id, ThreadSpan> thread_spans_;
  std::map<CommunicationKey, CommunicationStats> communication_;
  std::unordered_map<prof_track_id, prof_track_id> processes_;
  std::vector<prof_event> heap_events_;
  KeyCache heap_categories_; ///< category ids: whether they read "heap/..."
  std::vector<CollectiveCall> collective_calls_;
  std::vector<OpenSlice> open_slices_;
  std::unordered_map<prof_track_id, LatestSample> latest_samples_;
  std::map<OperatorKey, OperatorStats> operators_;
  std::map<StepKey, ThreadSpan> steps_;
  std::map<prof_track_id, BusyTimeline> timelines_;
  std::map<prof_track_id, BusyTimeline> communication_time_;
  std::map<prof_track_id, BusyTimeline> compute_;
  std::map<DeviceProcess, BusyTimeline> process_compute_;
  std::map<prof_track_id, BusyTimeline> device_communication_;
  std::map<DeviceProcess, BusyTimeline> process_device_communication_;
  std::map<DeviceProcess, BusyTimeline> process_busy_;
  std::map<DeviceWorkKey, DurationStats> device_work_;
  std::unordered_map<prof_track_id, ProcessTotals> process_totals_;
  std::unordered_map<prof_track_id, prof_track_id> totals_owners_;
  /// Counter tracks: whether one is a "Memory used" track.
  std::unordered_map<prof_track_id, bool> memory_used_tracks_;
  std::unordered_map<prof_string_id, bool> heap_peak_categories_; ///< whether one is "heap/peak"
  FunctionView functions_;
  MemoryLog memory_;
  LaunchLog launches_;
  uint64_t first_ts_ = std::numeric_limits<uint64_t>::max();
  uint64_t last_ts_ = 0;
};

/// When a report's times count from: the session's start when the report
/// knows it, else its first event.
uint64_t report_time_origin(const StatsAggregator &aggregator, const ExportHost &host);

} // namespace prof::stats
