// Builds each thread's state timeline (Running / Not scheduled / Waiting)
// from context-switch, fork and exit records fed in time order.
#ifndef PROF_PLUGINS_CPU_PERF_THREAD_STATES_HPP
#define PROF_PLUGINS_CPU_PERF_THREAD_STATES_HPP

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::cpu_perf {

enum class ThreadState { Running, NotScheduled, Waiting };

/// The text a state slice carries.
const char *state_name(ThreadState state);

struct StateSlice {
  int32_t tid = 0;
  uint64_t begin = 0, end = 0;
  ThreadState state = ThreadState::Running;
  int32_t cpu = -1; ///< the CPU for Running slices
};

class ThreadStates {
public:
  explicit ThreadStates(uint64_t capture_begin) : begin_(capture_begin) {}
  void on_switch(uint64_t t, int32_t tid, uint32_t cpu, bool out, bool preempted);
  void on_start(uint64_t t, int32_t tid);
  void on_exit(uint64_t t, int32_t tid);
  /// Hands out the slices closed so far, in the order they closed.
  std::vector<StateSlice> take() { return std::exchange(slices_, {}); }
  /// Closes open states at `capture_end` and hands out the slices not yet taken.
  std::vector<StateSlice> finish(uint64_t capture_end);

private:
  enum class Phase { Unknown, Running, Off, Dead };
  struct Thread {
    Phase phase = Phase::Unknown;
    uint64_t since = 0;
    int32_t cpu = -1;
    bool preempted = false;
  };
  void close(int32_t tid, Thread &t, uint64_t now);

  uint64_t begin_;
  std::unordered_map<int32_t, Thread> threads_;
  std::vector<StateSlice> slices_;
};

} // namespace prof::cpu_perf

#endif
