#include "torch_recorder.hpp"

#include "forward_tables.hpp"

#include <prof/correlation.hpp>
#include <prof/event.hpp>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <pthread.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace prof::torch {

/// What a thread keeps: plain data, on the heap (too big for static TLS,
/// where the plugin has a pointer to it) and freed when the thread exits.
struct ThreadState {
  static constexpr uint32_t kMaxDepth = 128, kNameSlots = 256;
  uint64_t owner; ///< the recorder's instance number
  uint32_t generation;
  prof_track_id track;
  int tid;
  uint32_t depth;          ///< operators open on this thread
  uint32_t backward_depth; ///< of them, backward nodes and their evaluation
  uint64_t child_ns[kMaxDepth];
  int64_t self_bytes[kMaxDepth];  ///< allocated less freed by the open operator itself
  int64_t child_bytes[kMaxDepth]; ///< likewise by the operators it called
  struct Name {
    const char *pointer; ///< the name as torch handed it
    const char *text;    ///< our copy, to tell a reused pointer
    prof_string_id id;
  } names[kNameSlots];
};

namespace {

// initial-exec: no __tls_get_addr call, which a shared object would pay on every call.
__thread ThreadState *t_state __attribute__((tls_model("initial-exec")));
pthread_key_t g_thread_key;

void free_thread_state(void *state) {
  t_state = nullptr; // on the exiting thread itself: a later call starts anew
  std::free(state);
}

/// The calling thread's state, allocated (zeroed) on first use; nullptr when
/// there is no memory for it.
ThreadState *this_thread_state() {
  if (t_state != nullptr) return t_state;
  static const bool keyed = pthread_key_create(&g_thread_key, &free_thread_state) == 0;
  auto *state = static_cast<ThreadState *>(std::calloc(1, sizeof(ThreadState)));
  if (state != nullptr && keyed) pthread_setspecific(g_thread_key, state);
  return t_state = state;
}
std::atomic<uint32_t> g_generation{1};
std::atomic<uint64_t> g_instances{0};
std::atomic<TorchRecorder *> g_recorder{nullptr};

void after_fork_in_child() { g_generation.fetch_add(1, std::memory_order_acq_rel); }

// How a call is kept between its callbacks (prof_torch_open_call::words).
enum Word { kBegin = 0, kTrackAndName = 1, kFlags = 2, kSequence = 3, kExtra = 4, kMore = 5 };
constexpr uint64_t kKindMask = 0xff;
constexpr uint64_t kOnStack = 1u << 8;        ///< counted in the thread's depth
constexpr uint64_t kBackward = 1u << 9;       ///< the backward pass
constexpr uint64_t kRecorded = 1u << 10;      ///< begun while recording
constexpr uint64_t kCommunicator = 1u << 11;  ///< kExtra holds its CollectiveFacts
constexpr uint64_t kOpensBackward = 1u << 12; ///< a backward node or its evaluation
constexpr uint64_t kStepShift = 13;           ///< a user range's StepMarker
constexpr uint64_t kStepMask = 3u << kStepShift;
constexpr uint64_t kEpochShift = 16; ///< 16 bits: which recorder began it

/// What a user range says of steps.
enum StepMarker : uint64_t { kNoStep = 0, kProfilerStep = 1, kOptimizerStep = 2, kNamedStep = 3 };
constexpr std::string_view kProfilerStepPrefix = "ProfilerStep#";
constexpr std::string_view kOptimizerStepPrefix = "Optimizer.step#";
constexpr std::string_view kZeroGradPrefix = "Optimizer.zero_grad#";

constexpr std::string_view kEvaluatePrefix = "autograd::engine::evaluate_function:";

bool backward_name(const char *name) {
  return std::strncmp(name, kEvaluatePrefix.data(), kEvaluatePrefix.size()) == 0;
}

uint64_t number_after(std::string_view text, std::string_view prefix) {
  uint64_t value = 0;
  const std::string_view digits = text.substr(prefix.size());
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

} // namespace

TorchRecorder *active_recorder() { return g_recorder.load(std::memory_order_acquire); }

TorchRecorder *new_lasting_recorder(const Host &host, RecorderOptions options) {
  static std::mutex mutex;
  static auto *lasting = new std::vector<std::unique_ptr<TorchRecorder>>; // never destroyed
  std::lock_guard lock(mutex);
  return lasting->emplace_back(std::make_unique<TorchRecorder>(host, std::move(options))).get();
}

void set_active_recorder(TorchRecorder *recorder) {
  static const bool at_fork = pthread_atfork(nullptr, nullptr, &after_fork_in_child) == 0;
  (void)at_fork;
  g_generation.fetch_add(1, std::memory_order_acq_rel);
  g_recorder.store(recorder, std::memory_order_release);
  // Issued before the switch: their backend calls were not recorded.
  process_groups().forget_waiting();
  if (recorder != nullptr) recorder->forget_running_collectives();
}

TorchRecorder::TorchRecorder(const Host &host, RecorderOptions options)
    : host_(host), options_(std::move(options)),
      generation_(g_generation.load(std::memory_order_acquire)), instance_(++g_instances),
      forward_tables_(std::make_unique<ForwardTables>()), groups_(process_groups()) {
  category_ = host_.intern("torch");
  step_category_ = host_.intern("torch/step");
  step_name_ = host_.intern("step");
  keys_ = {host_.intern(PROF_OPERATOR_ARG_PASS),
           host_.intern(PROF_OPERATOR_ARG_SELF),
           host_.intern("sequence number"),
           host_.intern("forward thread"),
           host_.intern(PROF_OPERATOR_ARG_INPUT_SHAPES),
           host_.intern(PROF_OPERATOR_ARG_INPUT_TYPES),
           host_.intern("communicator"),
           host_.intern("sequence"),
           host_.intern("operation"),
           host_.intern("bytes"),
           host_.intern("elements"),
           host_.intern("dtype"),
           host_.intern("backend"),
           host_.intern("group size"),
           host_.intern("group ranks"),
           host_.intern("rank"),
           host_.intern(PROF_STEP_ARG),
           host_.intern(PROF_COMMUNICATION_ARG_QUEUED),
           host_.intern(PROF_MEMORY_ARG_ADDRESS),
           host_.intern(PROF_MEMORY_ARG_MEMORY),
           host_.intern(PROF_OPERATOR_ARG_ALLOCATED),
           host_.intern(PROF_OPERATOR_ARG_SELF_ALLOCATED)};
  forward_ = host_.intern("forward");
  backward_ = host_.intern("backward");
  alloc_ = host_.intern("alloc");
  free_ = host_.intern("free");
  host_memory_ = host_.intern("host");
}

TorchRecorder::~TorchRecorder() = default;

ThreadState *TorchRecorder::thread_state() {
  ThreadState *found = this_thread_state();
  if (found == nullptr) return nullptr;
  ThreadState &state = *found;
  const uint32_t generation = g_generation.load(std::memory_order_acquire);
  if (state.owner != instance_ || state.generation != generation) {
    std::memset(&state, 0, sizeof state);
    state.owner = instance_;
    state.generation = generation;
    state.tid = gettid();
    state.track = declare_calling_thread_track(host_);
  }
  return found;
}

prof_string_id TorchRecorder::intern_text(std::string_view text) {
  std::lock_guard lock(names_mutex_);
  return interned(text).second;
}

std::pair<const std::string *, prof_string_id> TorchRecorder::interned(std::string_view text) {
  // Looked up without a copy: a known text (the common case) allocates nothing.
  auto it = names_.find(text);
  if (it == names_.end()) it = names_.emplace(std::string(text), host_.intern(text)).first;
  return {&it->first, it->second};
}

prof_string_id TorchRecorder::intern_name(ThreadState &state, const char *name) {
  const auto hash = (reinterpret_cast<uintptr_t>(name) >> 3) * 0x9E3779B97F4A7C15ull;
  ThreadState::Name &slot = state.names[hash >> (64 - 8)];
  if (slot.pointer == name && slot.text != nullptr && std::strcmp(slot.text, name) == 0)
    return slot.id;
  std::lock_guard lock(names_mutex_);
  const auto [text, id] = interned(name);
  slot = {name, text->c_str(), id}; // map nodes never move
  return id;
}

void TorchRecorder::begin(const prof_torch_call &call, prof_torch_open_call &open) {
  std::memset(&open, 0, sizeof open);
  const bool operator_kind =
      call.kind == PROF_TORCH_OPERATOR || call.kind == PROF_TORCH_BACKWARD_NODE;
  const bool communication = call.kind == PROF_TORCH_COLLECTIVE || call.group != nullptr;
  if (operator_kind && !options_.operators && call.group == nullptr) return;
  if (call.kind == PROF_TORCH_USER_RANGE && !options_.ranges && options_.steps == "none") return;
  if (communication && !options_.collectives && !operator_kind) return;
  ThreadState *found = thread_state();
  if (found == nullptr || found->track == 0) return;
  ThreadState &state = *found;
  const uint64_t now = TscClock::now_ns();
  uint64_t flags = call.kind | kRecorded | ((generation_ & 0xffffu) << kEpochShift);
  if (operator_kind) {
    const bool backward = call.kind == PROF_TORCH_BACKWARD_NODE || backward_name(call.name);
    if (backward || state.backward_depth > 0) flags |= kBackward;
    if (backward) flags |= kOpensBackward;
    if (state.depth < ThreadState::kMaxDepth) {
      state.child_ns[state.depth] = 0;
      state.self_bytes[state.depth] = state.child_bytes[state.depth] = 0;
      flags |= kOnStack;
    }
    ++state.depth;
    if (backward) ++state.backward_depth;
    if (call.kind == PROF_TORCH_BACKWARD_NODE)
      backward_node(call, now, state.track);
    else if (!(flags & kBackward))
      forward_operator(call, now, state.track);
  }
  open.words[kBegin] = now;
  open.words[kTrackAndName] =
      state.track | (static_cast<uint64_t>(intern_name(state, call.name)) << 32);
  open.words[kFlags] = flags | (static_cast<uint64_t>(static_cast<uint32_t>(state.tid)) << 32);
  open.words[kSequence] = static_cast<uint64_t>(call.sequence);
  open.words[kMore] = call.forward_thread;
  if (call.kind == PROF_TORCH_USER_RANGE && options_.steps != "none") {
    const std::string_view name = call.name;
    uint64_t marker = kNoStep;
    if (options_.steps != "auto") {
      if (name == options_.steps) marker = kNamedStep;
    } else if (name.starts_with(kProfilerStepPrefix)) {
      marker = kProfilerStep;
      profiler_steps_.store(true, std::memory_order_relaxed); // before the steps inside end
      open.words[kMore] = number_after(name, kProfilerStepPrefix);
    } else if (name.starts_with(kOptimizerStepPrefix)) {
      marker = kOptimizerStep;
    } else if (name.starts_with(kZeroGradPrefix)) {
      uint64_t none = 0; // the first step begins at the first zero_grad, if one comes first
      first_zero_grad_ns_.compare_exchange_strong(none, now, std::memory_order_relaxed);
    }
    open.words[kFlags] |= marker << kStepShift;
  }
  if (call.shapes != nullptr || call.types != nullptr)
    open.words[kExtra] = (call.shapes ? intern_text(call.shapes) : 0) |
                         (static_cast<uint64_t>(call.types ? intern_text(call.types) : 0) << 32);
  if (!communication || !options_.collectives) return;

  auto *facts = new CollectiveFacts;
  const std::string operation = collective_operation(call.name);
  facts->operation = intern_text(operation);
  facts->elements = call.elements;
  facts->bytes = call.bytes;
  if (call.dtype != nullptr) facts->dtype = intern_text(call.dtype);
  if (call.group != nullptr) {
    const uint64_t flow = session_correlation(getpid(), next_flow_.fetch_add(1));
    if (const auto issued = groups_.issue(call.group, operation, call.first_tensor, flow, now, true,
                                          call.group_sequence)) {
      facts->issued = *issued;
      facts->matched = true;
      host_.api()->emit_flow(host_.context(), state.track, now, flow, PROF_FLOW_BEGIN);
    }
  } else if (const auto issued = groups_.carry_out(operation, call.first_tensor)) {
    facts->issued = *issued;
    facts->matched = true;
    if (!issued->asked_for.empty()) {
      // Named for what was asked ("gloo:reduce_scatter"), as reports count it.
      const std::string_view name = call.name;
      const std::string asked = std::string(name.substr(0, name.find(':') + 1)) + issued->asked_for;
      facts->operation = intern_text(issued->asked_for);
      open.words[kTrackAndName] = (open.words[kTrackAndName] & 0xffffffffu) |
                                  (static_cast<uint64_t>(intern_text(asked)) << 32);
    }
    if (issued->flow != 0)
      host_.api()->emit_flow(host_.context(), state.track, now, issued->flow, PROF_FLOW_END);
  }
  open.words[kFlags] |= kCommunicator;
  open.words[kExtra] = reinterpret_cast<uintptr_t>(facts);
  if (call.kind == PROF_TORCH_COLLECTIVE) {
    std::lock_guard lock(running_mutex_);
    running_[facts] = {now, state.track,
                       static_cast<prof_string_id>(open.words[kTrackAndName] >> 32), *facts};
  }
}

void TorchRecorder::forward_operator(const prof_torch_call &call, uint64_t ts,
                                     prof_track_id track) {
  if (call.sequence >= 0) forward_tables_->record(call.thread, call.sequence, ts, track);
}

void TorchRecorder::backward_node(const prof_torch_call &call, uint64_t ts, prof_track_id track) {
  uint64_t forward_ts = 0;
  prof_track_id forward_track = 0;
  if (call.sequence < 0 || call.forward_thread == 0 ||
      !forward_tables_->take(call.forward_thread, call.sequence, forward_ts, forward_track))
    return;
  const uint64_t flow = session_correlation(getpid(), next_flow_.fetch_add(1));
  host_.api()->emit_flow(host_.context(), forward_track, forward_ts, flow, PROF_FLOW_BEGIN);
  host_.api()->emit_flow(host_.context(), track, ts, flow, PROF_FLOW_END);
}

void TorchRecorder::end(prof_torch_open_call &open) {
  const uint64_t flags = open.words[kFlags];
  if (!(flags & kRecorded)) return;
  if (((flags >> kEpochShift) & 0xffffu) != (generation_ & 0xffffu)) {
    if (flags & kCommunicator) delete reinterpret_cast<CollectiveFacts *>(open.words[kExtra]);
    return; // begun for another recorder, whose tracks are not ours
  }
  const uint64_t end_ns = TscClock::now_ns();
  const uint64_t begin = open.words[kBegin];
  const uint64_t duration = end_ns > begin ? end_ns - begin : 0;
  const auto track = static_cast<prof_track_id>(open.words[kTrackAndName] & 0xffffffffu);
  const auto name = static_cast<prof_string_id>(open.words[kTrackAndName] >> 32);
  const auto kind = static_cast<uint32_t>(flags & kKindMask);
  const bool operator_kind = kind == PROF_TORCH_OPERATOR || kind == PROF_TORCH_BACKWARD_NODE;
  uint64_t self = duration;
  int64_t self_bytes = 0, total_bytes = 0;
  // The thread's stack of operators, when this call ends where it began.
  if (ThreadState *here = t_state; operator_kind && here != nullptr &&
                                   static_cast<int>(flags >> 32) == here->tid &&
                                   here->owner == instance_) {
    ThreadState &state = *here;
    if (state.depth > 0) {
      --state.depth;
      if ((flags & kOnStack) && state.depth < ThreadState::kMaxDepth) {
        const uint64_t children = state.child_ns[state.depth];
        self = children < duration ? duration - children : 0;
        self_bytes = state.self_bytes[state.depth];
        total_bytes = self_bytes + state.child_bytes[state.depth];
      }
      if (state.depth > 0 && state.depth - 1 < ThreadState::kMaxDepth) {
        state.child_ns[state.depth - 1] += duration;
        state.child_bytes[state.depth - 1] += total_bytes;
      }
      if ((flags & kOpensBackward) && state.backward_depth > 0) --state.backward_depth;
    }
  }

  CollectiveFacts *facts =
      flags & kCommunicator ? reinterpret_cast<CollectiveFacts *>(open.words[kExtra]) : nullptr;
  if (kind == PROF_TORCH_COLLECTIVE && facts != nullptr) {
    {
      std::lock_guard lock(running_mutex_);
      running_.erase(facts);
    }
    emit_collective(begin, track, name, *facts, end_ns);
  } else if (operator_kind) {
    prof_arg args[10];
    uint32_t count = 0;
    args[count++] = arg_string(keys_.pass, flags & kBackward ? backward_ : forward_);
    args[count++] = arg_uint(keys_.self, self);
    const auto sequence = static_cast<int64_t>(open.words[kSequence]);
    if (sequence >= 0) args[count++] = arg_int(keys_.sequence_number, sequence);
    if (kind == PROF_TORCH_BACKWARD_NODE && open.words[kMore] != 0)
      args[count++] = arg_uint(keys_.forward_thread, open.words[kMore]);
    if (facts != nullptr) {
      if (facts->matched) {
        const GroupFacts group = groups_.facts(facts->issued.group);
        args[count++] = arg_string(keys_.communicator, intern_text(group.communicator));
        args[count++] = arg_uint(keys_.sequence, facts->issued.sequence);
      }
    } else if (const uint64_t extra = open.words[kExtra]; extra != 0) {
      if (const auto shapes = static_cast<prof_string_id>(extra & 0xffffffffu))
        args[count++] = arg_string(keys_.input_shapes, shapes);
      if (const auto types = static_cast<prof_string_id>(extra >> 32))
        args[count++] = arg_string(keys_.input_types, types);
    }
    if (options_.memory) {
      args[count++] = arg_int(keys_.allocated, total_bytes);
      args[count++] = arg_int(keys_.self_allocated, self_bytes);
    }
    host_.slice(track, begin, duration, name, category_, 0, PROF_CATEGORY_OPERATOR,
                std::span<const prof_arg>(args, count));
  } else if (kind == PROF_TORCH_USER_RANGE) {
    if (options_.ranges)
      host_.slice(track, begin, duration, name, category_, 0, PROF_CATEGORY_ANNOTATION);
    if (const uint64_t marker = (flags & kStepMask) >> kStepShift; marker != kNoStep)
      step_range_ended(marker, open.words[kMore], begin, end_ns, track);
  }
  delete facts;
}

void TorchRecorder::emit_unfinished(uint64_t now) {
  std::lock_guard lock(running_mutex_);
  for (const auto &[key, call] : running_)
    emit_collective(call.begin, call.track, call.name, call.facts, now);
}

void TorchRecorder::forget_running_collectives() {
  std::lock_guard lock(running_mutex_);
  running_.clear();
}

void TorchRecorder::emit_collective(uint64_t begin, prof_track_id track, prof_string_id name,
                                    const CollectiveFacts &facts, uint64_t end_ns) {
  prof_arg args[14];
  uint32_t count = 0;
  GroupFacts group;
  if (facts.matched) group = groups_.facts(facts.issued.group);
  args[count++] =
      arg_string(keys_.communicator, intern_text(facts.matched ? group.communicator : "unmatched"));
  if (facts.matched) {
    args[count++] = arg_uint(keys_.sequence, facts.issued.sequence);
    // How long it waited for the backend: the rank arrived when it was issued.
    if (facts.issued.issued_ns != 0 && facts.issued.issued_ns < begin)
      args[count++] = arg_uint(keys_.queued, begin - facts.issued.issued_ns);
  }
  args[count++] = arg_string(keys_.operation, facts.operation);
  if (facts.bytes >= 0) args[count++] = arg_int(keys_.bytes, facts.bytes);
  if (facts.elements >= 0) args[count++] = arg_int(keys_.elements, facts.elements);
  if (facts.dtype != 0) args[count++] = arg_string(keys_.dtype, facts.dtype);
  if (facts.matched) {
    args[count++] = arg_string(keys_.backend, intern_text(group.backend));
    args[count++] = arg_int(keys_.group_size, group.size);
    args[count++] = arg_int(keys_.rank, group.rank);
    if (!group.ranks.empty())
      args[count++] = arg_string(keys_.group_ranks, intern_text(group.ranks));
  }
  host_.slice(track, begin, end_ns > begin ? end_ns - begin : 0, name, category_, 0,
              PROF_CATEGORY_COMMUNICATION, std::span<const prof_arg>(args, count));
}

void TorchRecorder::memory(uintptr_t address, uint64_t bytes, bool freed, uint64_t live) {
  ThreadState *found = thread_state();
  if (found == nullptr || found->track == 0) return;
  ThreadState &state = *found;
  const uint64_t now = TscClock::now_ns();
  if (state.depth > 0 && state.depth - 1 < ThreadState::kMaxDepth)
    state.self_bytes[state.depth - 1] +=
        freed ? -static_cast<int64_t>(bytes) : static_cast<int64_t>(bytes);
  const prof_string_id name = freed ? free_ : alloc_;
  const prof_arg args[] = {arg_string(keys_.operation, name), arg_uint(keys_.address, address),
                           arg_uint(keys_.bytes, bytes), arg_string(keys_.memory, host_memory_)};
  host_.instant(state.track, now, name, category_, PROF_CATEGORY_MEMORY, args);
  host_.counter(memory_track(), now, static_cast<double>(live));
}

prof_track_id TorchRecorder::memory_track() {
  const uint64_t generation = g_generation.load(std::memory_order_acquire);
  const uint64_t known = memory_track_.load(std::memory_order_acquire);
  if (known != 0 && known >> 32 == generation) return static_cast<prof_track_id>(known);
  std::lock_guard lock(memory_track_mutex_); // declared once per process, again after a fork
  if (const uint64_t now = memory_track_.load(std::memory_order_relaxed);
      now != 0 && now >> 32 == generation)
    return static_cast<prof_track_id>(now);
  const prof_track_id track = host_.track(PROF_TRACK_COUNTER, "Tensor memory",
                                          declare_process_track(host_), getpid(), 0, -1, "bytes");
  memory_track_.store(generation << 32 | track, std::memory_order_release);
  return track;
}

void TorchRecorder::step_range_ended(uint64_t marker, uint64_t number, uint64_t begin, uint64_t end,
                                     prof_track_id track) {
  if (marker != kNamedStep && options_.process_marks_steps && options_.process_marks_steps())
    return;
  std::lock_guard lock(steps_mutex_);
  if (marker == kNamedStep) {
    emit_step(steps_.fetch_add(1) + 1, begin, end, track);
  } else if (marker == kProfilerStep) {
    steps_.fetch_add(1);
    emit_step(number, begin, end, track);
  } else if (marker == kOptimizerStep && !profiler_steps_.load(std::memory_order_relaxed)) {
    const uint64_t zero_grad = first_zero_grad_ns_.load(std::memory_order_relaxed);
    const uint64_t from = last_step_end_ != 0                   ? last_step_end_
                          : zero_grad != 0 && zero_grad < begin ? zero_grad
                                                                : begin;
    last_step_end_ = end;
    emit_step(steps_.fetch_add(1) + 1, from, end, track);
  }
}

void TorchRecorder::emit_step(uint64_t number, uint64_t begin, uint64_t end, prof_track_id track) {
  const prof_arg args[] = {arg_uint(keys_.step, number)};
  host_.slice(track, begin, end > begin ? end - begin : 0, step_name_, step_category_, 0,
              PROF_CATEGORY_ANNOTATION, args);
}

void name_group(const prof_torch_group &group) {
  std::vector<int64_t> ranks;
  if (group.ranks != nullptr) ranks.assign(group.ranks, group.ranks + group.rank_count);
  std::optional<std::string_view> name;
  if (group.name != nullptr) name = group.name;
  process_groups().name(group.group, name, group.backend ? group.backend : "unknown", group.rank,
                        group.size, ranks, group.sequence_base);
}

void TorchRecorder::warn(std::string_view text) {
  {
    std::lock_guard lock(warned_mutex_);
    if (!warned_.emplace(text).second) return;
  }
  host_.log(PROF_LOG_WARN, std::string(text));
}

} // namespace prof::torch
