// The torch source's recording, apart from torch: PyTorch's calls as the
// bridge hands them over (recorder_api.h) become events.
// - An operator or backward node: a slice of the operator category on its
//   thread, with "pass" (forward, or backward inside an autograd node),
//   "self" (its time less the operators it called), its autograd
//   "sequence number", and with shapes on its "input shapes" and "input
//   types". A flow ties each backward node to the forward operator it
//   differentiates: the latest one that began on the forward's thread with
//   the node's sequence number.
// - A user range (record_function, DDP.forward, Optimizer.step#SGD.step):
//   an annotation slice.
// - A c10d operator: an operator slice with its group's `communicator` and
//   the operation's `sequence`; the backend's collective that carries it
//   out (gloo:all_reduce) a communication slice with the same two, bytes,
//   elements, dtype, backend, the group's size and ranks and this rank in
//   it, `queued` (how long it waited for the backend after the operator
//   issued it), and a flow from the operator to it.
// - Steps: an annotation slice "step" with the argument "step" (event.h):
//   torch's ProfilerStep#N ranges when the program has them, else from the
//   end of one optimizer step to the end of the next (the first from the
//   first zero_grad before it), or each range named by the `steps` option.
//   The first two only in a process that does not mark its own steps
//   (prof.step(), prof_step()): numbered from the attach, they would
//   disagree with the program's count and between ranks.
// - Memory, when asked: each block of PyTorch's CPU allocator allocated or
//   freed, an instant of the memory category on the thread that did it
//   (memory "host"), the process's "Tensor memory" counter, and on each
//   operator the bytes it and those it called kept ("allocated", "self
//   allocated"), as key_averages(profile_memory=True) counts them.
#ifndef PROF_PLUGINS_TORCH_TORCH_RECORDER_HPP
#define PROF_PLUGINS_TORCH_TORCH_RECORDER_HPP

#include "process_groups.hpp"
#include "recorder_api.h"

#include <prof/plugin.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace prof::torch {

struct RecorderOptions {
  bool operators = true; ///< operators and backward nodes
  bool shapes = false;   ///< their input shapes and types
  bool collectives = true;
  bool ranges = true;  ///< user ranges
  bool memory = false; ///< the allocator's blocks
  /// "auto": ProfilerStep#N, else optimizer steps; "none"; else the name of
  /// the range that is one step.
  std::string steps = "auto";
  /// Whether the process marks its own steps (prof_steps_marked()): "auto"
  /// steps then yield to them. Null: it does not.
  bool (*process_marks_steps)() = nullptr;
};

struct ThreadState;
class ForwardTables;

/// A c10d operator's or a backend collective's facts, from begin to end.
struct CollectiveFacts {
  IssuedCollective issued;
  bool matched = false;
  prof_string_id operation = 0, dtype = 0;
  int64_t elements = -1, bytes = -1;
};

class TorchRecorder {
public:
  TorchRecorder(const Host &host, RecorderOptions options);
  ~TorchRecorder();
  TorchRecorder(const TorchRecorder &) = delete;
  TorchRecorder &operator=(const TorchRecorder &) = delete;

  void begin(const prof_torch_call &call, prof_torch_open_call &open);
  void end(prof_torch_open_call &open);

  bool wants_shapes() const { return options_.shapes; }
  bool wants_memory() const { return options_.memory; }
  /// The allocator gave (or, `freed`, took back) `bytes` at `address`;
  /// `live`: the bytes of the blocks it still lends.
  void memory(uintptr_t address, uint64_t bytes, bool freed, uint64_t live);
  void warn(std::string_view text);

  /// The backend collectives running now, each a communication slice from
  /// its begin to `now` (a flight recorder's dump: what a rank waits in).
  void emit_unfinished(uint64_t now);
  /// Forgets the running collectives it knows: it records again, and those
  /// that ended meanwhile were not seen ending.
  void forget_running_collectives();

  /// Steps recorded so far.
  uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }

private:
  /// The calling thread's state for this recorder; nullptr without memory.
  ThreadState *thread_state();
  prof_string_id intern_name(ThreadState &state, const char *name);
  prof_string_id intern_text(std::string_view text);
  /// The map's entry for `text`, added when new; names_mutex_ held.
  std::pair<const std::string *, prof_string_id> interned(std::string_view text);
  void forward_operator(const prof_torch_call &call, uint64_t ts, prof_track_id track);
  void backward_node(const prof_torch_call &call, uint64_t ts, prof_track_id track);
  /// A user range that marks a step (StepMarker; `number`: ProfilerStep#N's N) ended.
  void step_range_ended(uint64_t marker, uint64_t number, uint64_t begin, uint64_t end,
                        prof_track_id track);
  void emit_step(uint64_t number, uint64_t begin, uint64_t end, prof_track_id track);
  /// A backend collective's communication slice, ended at `end_ns` or at a dump.
  void emit_collective(uint64_t begin, prof_track_id track, prof_string_id name,
                       const CollectiveFacts &facts, uint64_t end_ns);
  /// The process's "Tensor memory" counter track (again after a fork).
  prof_track_id memory_track();

  Host host_;
  RecorderOptions options_;
  uint32_t generation_;
  uint64_t instance_; ///< tells this recorder's thread states from another's
  prof_string_id category_ = 0, step_category_ = 0, step_name_ = 0;
  struct Keys {
    prof_string_id pass, self, sequence_number, forward_thread, input_shapes, input_types,
        communicator, sequence, operation, bytes, elements, dtype, backend, group_size, group_ranks,
        rank, step, queued, address, memory, allocated, self_allocated;
  } keys_{};
  prof_string_id forward_ = 0, backward_ = 0;
  prof_string_id alloc_ = 0, free_ = 0, host_memory_ = 0;
  std::mutex memory_track_mutex_;
  std::atomic<uint64_t> memory_track_{0}; ///< generation << 32 | track

  std::mutex names_mutex_;
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_map<std::string, prof_string_id, TextHash, std::equal_to<>> names_;
  std::unique_ptr<ForwardTables> forward_tables_;
  std::atomic<uint64_t> next_flow_{1};
  ProcessGroups &groups_; ///< the process's: they outlive recorders

  std::mutex steps_mutex_;
  std::atomic<uint64_t> steps_{0};
  std::atomic<bool> profiler_steps_{false}; ///< ProfilerStep#N seen: they are the steps
  uint64_t last_step_end_ = 0;
  std::atomic<uint64_t> first_zero_grad_ns_{0}; ///< where optimizer step 1 begins, if before it
  struct RunningCollective {
    uint64_t begin = 0;
    prof_track_id track = 0;
    prof_string_id name = 0;
    CollectiveFacts facts;
  };
  std::mutex running_mutex_; ///< a dump's thread reads them while calls come and go
  std::unordered_map<const CollectiveFacts *, RunningCollective> running_;
  std::mutex warned_mutex_;
  std::set<std::string> warned_;
};

/// The recorder the bridge's calls go to, nullptr when none records.
TorchRecorder *active_recorder();

/// A recorder that lasts as long as the process (a thread may still be in
/// it after its source stopped), kept where leak checkers see it.
TorchRecorder *new_lasting_recorder(const Host &host, RecorderOptions options);

/// Names a process group to the process's groups (process_groups()).
void name_group(const prof_torch_group &group);
/// Calls go to `recorder` from now on (nullptr: nowhere). A replaced
/// recorder must stay allocated: a thread may still be inside it.
void set_active_recorder(TorchRecorder *recorder);

} // namespace prof::torch

#endif
