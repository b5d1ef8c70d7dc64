#include "mpi_recorder.hpp"

#include "clock_offset.hpp"
#include "comm_names.hpp"
#include "real_mpi.hpp"
#include "recording_guard.hpp"

#include <prof/event.hpp>
#include <prof/rank_clock.hpp>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <pthread.h>
#include <time.h>

#include <string>

namespace prof::mpi {

std::atomic<uint32_t> g_generation{1};

/// What a thread keeps: plain data in static TLS (initial-exec: no
/// __tls_get_addr call, which the plugin, a shared object, would pay).
struct ThreadState {
  static constexpr int kComms = 8;
  uint32_t generation;
  prof_track_id track;
  const MpiRecorder *owner;
  uint32_t comm_count, next_comm;
  MpiRecorder::CommInfo comms[kComms];
};
namespace {

__thread ThreadState t_state __attribute__((tls_model("initial-exec")));
std::atomic<MpiRecorder *> g_recorder{nullptr};

uint32_t next_recorder_id() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void after_fork_in_child() {
  reset_recording_guard_after_fork();
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

} // namespace

MpiRecorder *active_recorder() { return g_recorder.load(std::memory_order_acquire); }

bool install_recorder(MpiRecorder *recorder) {
  static std::atomic<bool> atfork{false};
  if (recorder == nullptr) {
    g_recorder.store(nullptr, std::memory_order_seq_cst);
    wait_for_recordings();
    return true;
  }
  prepare_recording_guard();
  MpiRecorder *expected = nullptr;
  if (!g_recorder.compare_exchange_strong(expected, recorder, std::memory_order_seq_cst))
    return false;
  if (!atfork.exchange(true)) pthread_atfork(nullptr, nullptr, &after_fork_in_child);
  g_generation.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

MpiRecorder::MpiRecorder(const Host &host, bool clock_sync)
    : host_(host), id_(next_recorder_id()), clock_sync_(clock_sync) {
  for (size_t i = 0; i < kMpiFunctionCount; ++i)
    names_[i] = host_.intern(kMpiFunctionNames[i]);
  category_ = host_.intern("mpi");
  bytes_ = host_.intern("bytes");
  peer_ = host_.intern("peer");
  root_ = host_.intern("root");
  tag_ = host_.intern("tag");
  requests_ = host_.intern("requests");
  comm_ = host_.intern("communicator");
  comm_size_ = host_.intern("communicator size");
  rank_ = host_.intern("rank");
  communicator_ = host_.intern("MPI communicator");
  sequence_ = host_.intern("sequence");
}

ThreadState &MpiRecorder::thread_state() {
  ThreadState &state = t_state;
  const uint32_t generation = g_generation.load(std::memory_order_acquire);
  const bool new_owner = state.owner != this;
  state.owner = this;
  if (new_owner || state.generation != generation) {
    // Another instance, a fork, or a communicator freed: look everything up again.
    state.generation = generation;
    state.track = 0;
    state.comm_count = 0;
    state.next_comm = 0;
  }
  return state;
}

prof_track_id MpiRecorder::thread_track(ThreadState &state) {
  if (state.track == 0) state.track = declare_calling_thread_track(host_);
  return state.track;
}

const MpiRecorder::CommInfo &MpiRecorder::comm_info(ThreadState &state, MPI_Comm comm) {
  for (uint32_t i = 0; i < state.comm_count; ++i)
    if (state.comms[i].comm == comm) return state.comms[i];
  static const auto size_of = pmpi<int (*)(MPI_Comm, int *)>("PMPI_Comm_size");
  static const auto rank_in = pmpi<int (*)(MPI_Comm, int *)>("PMPI_Comm_rank");
  // A few communicators per thread; past that, the oldest entry goes.
  const uint32_t slot = state.comm_count < ThreadState::kComms
                            ? state.comm_count++
                            : state.next_comm++ % ThreadState::kComms;
  CommInfo &info = state.comms[slot];
  info = CommInfo{};
  info.comm = comm;
  const std::string text = comm_name(comm);
  info.name = host_.intern(text);
  if (size_of) size_of(comm, &info.size);
  if (rank_in) rank_in(comm, &info.rank);
  // Its size and this process's rank in it are said once, not on every call.
  const prof_arg facts[] = {arg_string(comm_, info.name), arg_int(comm_size_, info.size),
                            arg_int(rank_, info.rank)};
  if (const prof_track_id track = thread_track(state))
    host_.instant(track, TscClock::now_ns(), communicator_, category_, PROF_CATEGORY_COMMUNICATION,
                  facts);
  return info;
}

void begin_call(MpiFunction function, uint64_t begin, const CallFacts *facts, uint64_t sequence) {
  const RecordingMark mark;
  if (MpiRecorder *recorder = g_recorder.load(std::memory_order_relaxed))
    recorder->begin(function, begin, facts, sequence);
}

void record_call(MpiFunction function, uint64_t begin, uint64_t end, const CallFacts &facts,
                 uint64_t sequence) {
  open_call_ends();
  // Mark first, then look: install_recorder(nullptr) clears the pointer
  // first, then waits for the marks, so a recorder seen here outlives this call.
  const RecordingMark mark;
  if (MpiRecorder *recorder = g_recorder.load(std::memory_order_relaxed))
    recorder->record(function, begin, end, facts, sequence);
}

void sync_clock_with_rank_zero() {
  const RecordingMark mark;
  MpiRecorder *recorder = g_recorder.load(std::memory_order_relaxed);
  if (recorder == nullptr || !recorder->clock_sync()) return;
  if (const auto offset = measure_clock_offset(&TscClock::now_ns))
    recorder->record_clock_offset(*offset);
}

void MpiRecorder::record_clock_offset(const ClockOffset &offset) {
  const prof_arg args[] = {{host_.intern(kClockOffsetArg), PROF_ARG_INT, {.i = offset.offset_ns}},
                           {host_.intern(kClockErrorArg), PROF_ARG_UINT, {.u = offset.error_ns}},
                           {rank_, PROF_ARG_UINT, {.u = static_cast<uint64_t>(offset.rank)}}};
  host_.instant(declare_process_track(host_), offset.at_ns, host_.intern(kClockOffsetName),
                category_, PROF_CATEGORY_OTHER, args);
}

void MpiRecorder::begin(MpiFunction function, uint64_t begin, const CallFacts *facts,
                        uint64_t sequence) {
  ThreadState &state = thread_state();
  OpenCall call{begin, thread_track(state), static_cast<uint32_t>(function), 0, sequence, id_};
  if (call.track == 0) return;
  if (facts && facts->has_comm) call.comm = comm_info(state, facts->comm).name;
  open_call_begins(call);
}

void MpiRecorder::emit_unfinished(uint64_t now) const {
  for_each_open_call([&](const OpenCall &call) {
    if (call.recorder != id_ || call.function >= kMpiFunctionCount) return;
    prof_arg args[2];
    uint32_t count = 0;
    if (call.comm != 0) args[count++] = arg_string(comm_, call.comm);
    if (call.sequence != 0) args[count++] = arg_uint(sequence_, call.sequence);
    host_.slice(call.track, call.begin, now > call.begin ? now - call.begin : 0,
                names_[call.function], category_, 0, PROF_CATEGORY_COMMUNICATION,
                std::span<const prof_arg>(args, count));
  });
}

void MpiRecorder::record(MpiFunction function, uint64_t begin, uint64_t end, const CallFacts &facts,
                         uint64_t sequence) {
  ThreadState &state = thread_state();
  const prof_track_id track = thread_track(state);
  if (track == 0) return;
  prof_arg args[6];
  uint32_t count = 0;
  if (facts.bytes >= 0) args[count++] = arg_int(bytes_, facts.bytes);
  if (facts.peer != CallFacts::kNone) args[count++] = arg_int(peer_, facts.peer);
  if (facts.root != CallFacts::kNone) args[count++] = arg_int(root_, facts.root);
  if (facts.tag != CallFacts::kNone) args[count++] = arg_int(tag_, facts.tag);
  if (facts.requests >= 0) args[count++] = arg_int(requests_, facts.requests);
  if (facts.has_comm) {
    const prof_string_id comm = comm_info(state, facts.comm).name;
    args[count++] = arg_string(comm_, comm);
    if (sequence != 0) args[count++] = arg_uint(sequence_, sequence);
  }
  host_.slice(track, begin, end > begin ? end - begin : 0, names_[static_cast<size_t>(function)],
              category_, 0, PROF_CATEGORY_COMMUNICATION, std::span<const prof_arg>(args, count));
}

} // namespace prof::mpi
