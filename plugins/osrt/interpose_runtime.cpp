// The shared state of the interposers, record_call, and the switches of
// tracing_control.hpp.
#include "interpose_runtime.hpp"

#include "call_recorder.hpp"
#include "tracing_control.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

namespace prof::osrt {

__thread ThreadState t_thread __attribute__((tls_model("initial-exec"))) = {};
constinit std::atomic<bool> g_tracing{false};
constinit std::atomic<uint64_t> g_threshold_ticks{~uint64_t{0}};
constinit std::atomic<uint32_t> g_epoch{1};

namespace {

constinit std::atomic<CallRecorder *> g_recorder{nullptr};
/// Threads inside record_call, so remove_recorder knows when none is left.
constinit std::atomic<int> g_recording{0};
constinit std::atomic<bool> g_atfork_registered{false};

void after_fork_in_child() {
  g_recording.store(0, std::memory_order_relaxed);
  OpenCallSlots::keep_only_calling_thread();
  if (OpenCallSlot *slot = OpenCallSlots::own()) slot->claimed(); // a new thread id
  g_epoch.fetch_add(1, std::memory_order_acq_rel);
  if (CallRecorder *recorder = g_recorder.load(std::memory_order_acquire))
    recorder->reset_locks_after_fork();
}

} // namespace

void OpenCallSlot::claimed() noexcept { tid.store(gettid(), std::memory_order_relaxed); }

PassThroughScope::PassThroughScope() noexcept { ++t_thread.guard; }
PassThroughScope::~PassThroughScope() { --t_thread.guard; }

void *resolve_next(const char *name, const char *version) noexcept {
  PassThroughScope pass;
  return version != nullptr ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
}

void record_call(OsrtFunction function, uint64_t t0, uint64_t t1, void *caller) noexcept {
  const int saved_errno = errno;
  PassThroughScope pass;
  // Announce first, then look: remove_recorder clears the pointer first, then
  // waits for the count, so a recorder seen here outlives this call.
  g_recording.fetch_add(1, std::memory_order_seq_cst);
  if (CallRecorder *recorder = g_recorder.load(std::memory_order_seq_cst)) {
    try {
      recorder->record(function, t0, t1, caller);
    } catch (...) {
      // Out of memory while symbolizing: the call is lost, the application is not.
    }
  }
  g_recording.fetch_sub(1, std::memory_order_release);
  errno = saved_errno;
}

bool install_recorder(CallRecorder *recorder, uint64_t threshold_ticks) {
  CallRecorder *expected = nullptr;
  if (!g_recorder.compare_exchange_strong(expected, recorder, std::memory_order_seq_cst))
    return false;
  if (!g_atfork_registered.exchange(true)) pthread_atfork(nullptr, nullptr, &after_fork_in_child);
  OpenCallSlots::prepare();
  g_epoch.fetch_add(1, std::memory_order_acq_rel);
  g_threshold_ticks.store(threshold_ticks, std::memory_order_relaxed);
  g_tracing.store(true, std::memory_order_release);
  return true;
}

bool recorder_installed() { return g_recorder.load(std::memory_order_acquire) != nullptr; }

void remove_recorder(CallRecorder *recorder) {
  CallRecorder *expected = recorder;
  if (!g_recorder.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst)) return;
  g_tracing.store(false, std::memory_order_release);
  PassThroughScope pass;
  while (g_recording.load(std::memory_order_seq_cst) != 0) {
    timespec pause{0, 20000};
    nanosleep(&pause, nullptr);
  }
}

void set_tracing(bool on) {
  g_tracing.store(on && g_recorder.load(std::memory_order_acquire) != nullptr,
                  std::memory_order_release);
}

} // namespace prof::osrt
