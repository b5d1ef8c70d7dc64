#include "thread_states.hpp"

namespace prof::cpu_perf {

const char *state_name(ThreadState state) {
  switch (state) {
  case ThreadState::Running: return "Running";
  case ThreadState::NotScheduled: return "Not scheduled";
  case ThreadState::Waiting: return "Waiting";
  }
  return "";
}

void ThreadStates::close(int32_t tid, Thread &t, uint64_t now) {
  if (now <= t.since) return;
  if (t.phase == Phase::Running)
    slices_.push_back({tid, t.since, now, ThreadState::Running, t.cpu});
  else if (t.phase == Phase::Off)
    slices_.push_back({tid, t.since, now,
                       t.preempted ? ThreadState::NotScheduled : ThreadState::Waiting, -1});
}

void ThreadStates::on_start(uint64_t t, int32_t tid) {
  Thread &th = threads_[tid];
  if (th.phase != Phase::Unknown) return;
  th.phase = Phase::Off; // a new task is runnable until it first runs
  th.preempted = true;
  th.since = t;
}

void ThreadStates::on_exit(uint64_t t, int32_t tid) {
  // The exiting task loses its perf context before its last switch-out, so
  // the exit record ends its timeline.
  Thread &th = threads_[tid];
  if (th.phase == Phase::Unknown) {
    th.phase = Phase::Running;
    th.since = begin_;
  }
  close(tid, th, t);
  th.phase = Phase::Dead;
}

void ThreadStates::on_switch(uint64_t t, int32_t tid, uint32_t cpu, bool out, bool preempted) {
  if (tid <= 0) return; // the idle task
  Thread &th = threads_[tid];
  if (th.phase == Phase::Dead) return;
  if (out) {
    if (th.phase == Phase::Unknown) {
      th.phase = Phase::Running; // it was running when the capture began
      th.since = begin_;
      th.cpu = static_cast<int32_t>(cpu);
    }
    if (th.phase == Phase::Running) close(tid, th, t);
    th.phase = Phase::Off;
    th.preempted = preempted;
  } else {
    if (th.phase == Phase::Off) close(tid, th, t);
    th.phase = Phase::Running;
    th.cpu = static_cast<int32_t>(cpu);
  }
  th.since = t;
}

std::vector<StateSlice> ThreadStates::finish(uint64_t capture_end) {
  for (auto &[tid, th] : threads_) {
    if (th.phase == Phase::Running || th.phase == Phase::Off) close(tid, th, capture_end);
    th.phase = Phase::Dead;
  }
  return take();
}

} // namespace prof::cpu_perf
