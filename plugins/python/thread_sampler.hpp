// CPU-time sampling of every thread of this process from inside it: each
// thread gets a task-clock perf event whose overflow sends SIGPROF to that
// thread (F_SETOWN_EX), or where perf events are refused a POSIX timer on
// its CPU clock (which the kernel checks only at its tick, often 250 Hz);
// the handler records the thread's native return addresses (unwound through
// the signal frame) and its Python frames into the thread's ring. The
// handler takes no lock, allocates nothing and calls into no Python.
#ifndef PROF_PLUGINS_PYTHON_THREAD_SAMPLER_HPP
#define PROF_PLUGINS_PYTHON_THREAD_SAMPLER_HPP

#include "sample_ring.hpp"
#include <prof/python/python_runtime.hpp>

#include <atomic>
#include <csignal>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prof::python {

class ThreadSampler {
public:
  /// `runtime`: the Python whose frames samples carry, or nullptr for
  /// native frames only. `skip_tid`: a thread never sampled (the worker).
  ThreadSampler(const PythonRuntime *runtime, int frequency_hz, int native_depth, int skip_tid);
  ~ThreadSampler() { stop(); }
  ThreadSampler(const ThreadSampler &) = delete;
  ThreadSampler &operator=(const ThreadSampler &) = delete;

  /// Takes SIGPROF (refused when the application handles it), calls
  /// `before_sampling`, and starts sampling the threads that exist; "" or
  /// why not.
  std::string start(const std::function<void()> &before_sampling = {});
  /// Starts timers on new threads and lets go of exited ones.
  void refresh_threads();
  /// Hands every sample taken so far to `each(tid, record)`, `tid` the
  /// thread sampled (a thread that has exited included).
  void drain(const std::function<void(int, const SampleRecord &)> &each);
  /// Stops every timer and returns once no handler runs any more. The
  /// handler stays installed, doing nothing, for signals still queued.
  void stop();
  /// In a forked child, before anything samples: the parent's sampler,
  /// timers and threads are not the child's.
  static void forget_after_fork() noexcept;
  /// Samples lost to full rings or to a handler that found its thread busy.
  uint64_t take_dropped();
  /// Threads beyond kMaxThreads, never sampled.
  uint64_t unsampled_threads() const { return unsampled_threads_; }
  /// Why some threads are sampled by POSIX timers instead of perf events;
  /// "" when none are.
  const std::string &timer_reason() const { return timer_reason_; }

private:
  struct Slot {
    std::atomic<int> tid{0}; ///< 0: free
    std::atomic<int> fd{-1}; ///< the perf event, or -1
    timer_t timer{};         ///< the POSIX timer when fd is -1
    std::unique_ptr<SampleRing> ring;
    bool seen = false; ///< present in the last scan of the thread list
  };
  static constexpr std::size_t kMaxThreads = 1024;
  /// Perf events per process at most: each holds a file descriptor.
  static constexpr int kMaxPerfEvents = 256;

  static void on_signal(int signal, siginfo_t *info, void *context);
  void record(Slot &slot) noexcept;
  bool add_thread(int tid);
  bool arm_perf_event(Slot &slot, int tid);
  bool arm_timer(Slot &slot, int tid);
  Slot *slot_of_event(int fd) noexcept;
  void release(Slot &slot);

  const PythonRuntime *runtime_;
  long period_ns_;
  int native_depth_;
  int skip_tid_;
  std::size_t ring_capacity_;
  std::unique_ptr<Slot[]> slots_;
  bool started_ = false;
  std::atomic<std::size_t> used_slots_{0}; ///< slots past this were never used
  int perf_events_ = 0;
  int perf_event_limit_ = kMaxPerfEvents;
  bool perf_refused_ = false;
  std::string timer_reason_;
  uint64_t unsampled_threads_ = 0;
};

} // namespace prof::python

#endif
