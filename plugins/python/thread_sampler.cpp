#include "thread_sampler.hpp"

#include "sigprof_chain.hpp"

#include <prof/python/frame_walk.hpp>

#include <prof/tsc_clock.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <unwind.h>

namespace prof::python {
namespace {

std::atomic<ThreadSampler *> g_sampler{nullptr};
std::atomic<int> g_in_handler{0};
// Where the newest sampler's slots are: a timer whose value points there is
// a sample's, even once that sampler has stopped.
std::atomic<uintptr_t> g_slots_begin{0};
std::atomic<uintptr_t> g_slots_end{0};
bool g_handler_installed = false;

// The CPU clock of thread `tid` (the kernel's CPUCLOCK_PERTHREAD with
// CPUCLOCK_SCHED), which pthread_getcpuclockid() gives only for pthread_t.
clockid_t thread_cpu_clock(int tid) { return static_cast<clockid_t>((~tid << 3) | 6); }

struct Unwind {
  uintptr_t *out;
  int capacity;
  int count;
  bool past_signal_frame;
};

// Frames until the signal frame are the handler's own: the first frame
// after it (the interrupted one) is the one whose IP is exact.
_Unwind_Reason_Code collect(_Unwind_Context *context, void *arg) {
  auto *unwind = static_cast<Unwind *>(arg);
  int exact = 0;
  const uintptr_t ip = _Unwind_GetIPInfo(context, &exact);
  if (ip == 0) return _URC_END_OF_STACK;
  if (!unwind->past_signal_frame) {
    if (exact == 0) return _URC_NO_REASON;
    unwind->past_signal_frame = true;
    unwind->out[unwind->count++] = ip + 1;
  } else {
    unwind->out[unwind->count++] = exact != 0 ? ip + 1 : ip;
  }
  return unwind->count == unwind->capacity ? _URC_END_OF_STACK : _URC_NO_REASON;
}

} // namespace

ThreadSampler::ThreadSampler(const PythonRuntime *runtime, int frequency_hz, int native_depth,
                             int skip_tid)
    : runtime_(runtime), period_ns_(1'000'000'000L / (frequency_hz > 0 ? frequency_hz : 1)),
      native_depth_(native_depth < kMaxNativeFrames ? native_depth : kMaxNativeFrames),
      skip_tid_(skip_tid), slots_(std::make_unique<Slot[]>(kMaxThreads)) {
  g_slots_begin.store(reinterpret_cast<uintptr_t>(slots_.get()));
  g_slots_end.store(reinterpret_cast<uintptr_t>(slots_.get() + kMaxThreads));
  // Room for about 200 ms of samples, as the worker drains every 10 ms.
  const long wanted = 200'000'000L / period_ns_;
  ring_capacity_ = 8;
  while (ring_capacity_ < static_cast<std::size_t>(wanted) && ring_capacity_ < 256)
    ring_capacity_ *= 2;
}

// A forked child has none of the parent's timers or events, and none of its
// other threads, perhaps caught inside the handler: it starts afresh.
void ThreadSampler::forget_after_fork() noexcept {
  g_sampler.store(nullptr);
  g_in_handler.store(0);
}

std::string ThreadSampler::start(const std::function<void()> &before_sampling) {
  if (started_) return "";
  ThreadSampler *expected = nullptr;
  if (!g_sampler.compare_exchange_strong(expected, this))
    return "another python sampler already runs in this process";
  if (!g_handler_installed) {
    struct sigaction old {};
    real_sigaction(SIGPROF, nullptr, &old);
    const bool free = (old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_DFL;
    if (!free) {
      g_sampler.store(nullptr);
      return "the application handles SIGPROF itself; its threads are not sampled";
    }
    take_sigprof(old); // the application's SIGPROF calls are recorded from here on
    struct sigaction action {};
    action.sa_sigaction = &ThreadSampler::on_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    real_sigaction(SIGPROF, &action, nullptr);
    g_handler_installed = true;
  }
  if (before_sampling) before_sampling();
  // Perf events hold descriptors: a quarter of the application's at most.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    perf_event_limit_ = static_cast<int>(std::min<rlim_t>(kMaxPerfEvents, files.rlim_cur / 4));
  // The unwinder sets itself up on first use: not in a signal handler.
  uintptr_t warm_up[4];
  Unwind unwind{warm_up, 4, 0, true};
  _Unwind_Backtrace(&collect, &unwind);
  started_ = true;
  refresh_threads();
  return "";
}

bool ThreadSampler::add_thread(int tid) {
  Slot *free_slot = nullptr;
  for (std::size_t i = 0; i < kMaxThreads; ++i) {
    if (slots_[i].tid.load(std::memory_order_relaxed) == 0 && !slots_[i].ring) {
      free_slot = &slots_[i];
      if (i + 1 > used_slots_.load()) used_slots_.store(i + 1);
      break;
    }
  }
  if (free_slot == nullptr) return false;
  Slot &slot = *free_slot;
  slot.ring = std::make_unique<SampleRing>(ring_capacity_);
  slot.seen = true;
  if (arm_perf_event(slot, tid) || (errno != ESRCH && arm_timer(slot, tid))) return true;
  slot.tid.store(0);
  slot.ring.reset();
  return errno == ESRCH || errno == EINVAL; // gone already: nothing missed
}

bool ThreadSampler::arm_perf_event(Slot &slot, int tid) {
  errno = 0;
  if (perf_refused_) return false;
  if (perf_events_ >= perf_event_limit_) {
    if (timer_reason_.empty())
      timer_reason_ = "more threads than " + std::to_string(perf_event_limit_) +
                      " perf events (a quarter of the descriptors it may open)";
    return false;
  }
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = static_cast<uint64_t>(period_ns_);
  attr.disabled = 1;
  attr.exclude_hv = 1;
  int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0 && (errno == EACCES || errno == EPERM)) { // kernel time needs perf_event_paranoid < 2
    attr.exclude_kernel = 1;
    fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
  }
  if (fd < 0) {
    if (errno == ESRCH) return false;
    perf_refused_ = true;
    timer_reason_ = std::string("perf_event_open was refused (") + std::strerror(errno) + ")";
    return false;
  }
  const f_owner_ex owner{F_OWNER_TID, tid};
  if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0) {
    close(fd);
    return false;
  }
  slot.tid.store(tid);
  slot.fd.store(fd);
  ++perf_events_;
  ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  return true;
}

bool ThreadSampler::arm_timer(Slot &slot, int tid) {
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event.sigev_value.sival_ptr = &slot;
  event._sigev_un._tid = tid; // sigev_notify_thread_id, which glibc 2.36 does not name
  slot.tid.store(tid);
  if (timer_create(thread_cpu_clock(tid), &event, &slot.timer) != 0) {
    slot.tid.store(0);
    return false;
  }
  itimerspec every{};
  every.it_interval.tv_sec = period_ns_ / 1'000'000'000L;
  every.it_interval.tv_nsec = period_ns_ % 1'000'000'000L;
  every.it_value = every.it_interval;
  timer_settime(slot.timer, 0, &every, nullptr);
  return true;
}

void ThreadSampler::release(Slot &slot) {
  if (const int fd = slot.fd.exchange(-1); fd >= 0) {
    close(fd);
    --perf_events_;
  } else {
    timer_delete(slot.timer);
  }
  slot.tid.store(0);
  // The ring stays until drained: the worker frees it (drain()).
}

void ThreadSampler::refresh_threads() {
  if (!started_) return;
  for (std::size_t i = 0; i < kMaxThreads; ++i)
    slots_[i].seen = false;
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return;
  while (const dirent *entry = readdir(tasks)) {
    const int tid = std::atoi(entry->d_name);
    if (tid <= 0 || tid == skip_tid_) continue;
    bool known = false;
    for (std::size_t i = 0; i < kMaxThreads && !known; ++i) {
      if (slots_[i].tid.load(std::memory_order_relaxed) == tid) {
        slots_[i].seen = true;
        known = true;
      }
    }
    if (!known && !add_thread(tid)) ++unsampled_threads_;
  }
  closedir(tasks);
  for (std::size_t i = 0; i < kMaxThreads; ++i)
    if (slots_[i].tid.load(std::memory_order_relaxed) != 0 && !slots_[i].seen) release(slots_[i]);
}

void ThreadSampler::drain(const std::function<void(int, const SampleRecord &)> &each) {
  for (std::size_t i = 0; i < kMaxThreads; ++i) {
    Slot &slot = slots_[i];
    if (!slot.ring) continue;
    const int tid = slot.tid.load(std::memory_order_acquire);
    slot.ring->consume([&](const SampleRecord &record) { each(record.tid, record); });
    if (tid == 0 && g_in_handler.load() == 0) {
      slot.ring.reset(); // released and no handler can still be writing
    }
  }
}

uint64_t ThreadSampler::take_dropped() {
  uint64_t dropped = 0;
  for (std::size_t i = 0; i < kMaxThreads; ++i)
    if (slots_[i].ring) dropped += slots_[i].ring->take_dropped();
  return dropped;
}

void ThreadSampler::stop() {
  if (!started_) return;
  for (std::size_t i = 0; i < kMaxThreads; ++i)
    if (slots_[i].tid.load(std::memory_order_relaxed) != 0) release(slots_[i]);
  g_sampler.store(nullptr, std::memory_order_release);
  while (g_in_handler.load() != 0)
    sched_yield();
  started_ = false;
}

void ThreadSampler::on_signal(int signal, siginfo_t *info, void *context) {
  const int saved_errno = errno;
  g_in_handler.fetch_add(1); // before the tid check: see drain()
  ThreadSampler *sampler = g_sampler.load(std::memory_order_acquire);
  // A sample is a timer of the slots or a perf event's signal; the rest is
  // the application's: its own timer, kill() or sigqueue().
  bool ours = false;
  Slot *slot = nullptr;
  if (info != nullptr && info->si_code == SI_TIMER) {
    const auto value = reinterpret_cast<uintptr_t>(info->si_value.sival_ptr);
    ours = value >= g_slots_begin.load() && value < g_slots_end.load();
    if (ours && sampler != nullptr) slot = static_cast<Slot *>(info->si_value.sival_ptr);
  } else if (info != nullptr && info->si_code >= POLL_IN && info->si_code <= POLL_HUP) {
    // A perf event's (overflow; POLL_HUP as its thread exits), queued
    // perhaps after its slot was let go: never the application's to see.
    ours = true;
    slot = sampler != nullptr ? sampler->slot_of_event(info->si_fd) : nullptr;
  }
  if (slot != nullptr && slot->tid.load() == static_cast<int>(syscall(SYS_gettid)))
    sampler->record(*slot);
  g_in_handler.fetch_sub(1);
  errno = saved_errno;
  if (!ours) forward_sigprof(signal, info, context);
}

ThreadSampler::Slot *ThreadSampler::slot_of_event(int fd) noexcept {
  const std::size_t used = used_slots_.load();
  for (std::size_t i = 0; i < used; ++i)
    if (slots_[i].fd.load() == fd) return &slots_[i];
  return nullptr;
}

void ThreadSampler::record(Slot &slot) noexcept {
  SampleRing *ring = slot.ring.get();
  if (ring == nullptr) return;
  SampleRecord *record = ring->claim();
  if (record == nullptr) return;
  record->time = TscClock::monotonic_ns();
  record->tid = slot.tid.load(std::memory_order_relaxed);
  Unwind unwind{record->native, native_depth_, 0, false};
  _Unwind_Backtrace(&collect, &unwind);
  record->native_count = static_cast<uint16_t>(unwind.count);
  record->python_truncated = false;
  record->python_count =
      runtime_ != nullptr
          ? static_cast<uint16_t>(walk_python_frames(*runtime_, record->python, kMaxPythonFrames,
                                                     &record->python_truncated))
          : 0;
  if (record->native_count == 0 && record->python_count == 0) return; // nothing to say
  ring->publish();
}

} // namespace prof::python
