// The osrt source with its interposers linked into this test binary (so they
// stand in front of the C library here without LD_PRELOAD), driven through
// its descriptor against a fake host in shared memory.
#include "shared_fake_host.hpp"

#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <algorithm>

#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>

extern "C" const prof_plugin_descriptor *prof_plugin_entry(void);

namespace {

using prof::testing::SharedFakeHost;
constexpr uint64_t kMs = 1000000;

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

timespec after_ms(clockid_t clock, long ms) {
  timespec ts;
  clock_gettime(clock, &ts);
  ts.tv_nsec += ms * 1000000;
  ts.tv_sec += ts.tv_nsec / 1000000000;
  ts.tv_nsec %= 1000000000;
  return ts;
}

void sleep_ms(long ms) {
  timespec pause{ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&pause, nullptr);
}

class OsrtTest : public ::testing::Test {
protected:
  void SetUp() override { host_ = SharedFakeHost::create(); }
  void TearDown() override {
    stop();
    SharedFakeHost::destroy(host_);
  }

  /// Creates, configures and starts an instance through the vtable.
  void start() {
    const prof_source_vtable *vtable = prof_plugin_entry()->source;
    instance_ = vtable->create(host_->api(), host_);
    ASSERT_NE(instance_, nullptr);
    ASSERT_EQ(vtable->configure(instance_), PROF_OK);
    ASSERT_EQ(vtable->start(instance_), PROF_OK);
  }
  void stop() {
    if (instance_ == nullptr) return;
    const prof_source_vtable *vtable = prof_plugin_entry()->source;
    EXPECT_EQ(vtable->stop(instance_), PROF_OK);
    vtable->destroy(instance_);
    instance_ = nullptr;
  }

  /// The recorded slices called `name` made by the calling thread.
  std::vector<SharedFakeHost::Slice> mine(const std::string &name) {
    std::vector<SharedFakeHost::Slice> out;
    for (const auto &slice : host_->slices_named(name)) {
      const auto track = host_->track(slice.track);
      if (track.pid == getpid() && track.tid == gettid()) out.push_back(slice);
    }
    return out;
  }
  /// Expects one slice `name` on this thread within [begin, end] whose
  /// length is within 5% of that outer measurement, or 10 ms on a loaded
  /// machine, where the thread may be preempted between the outer clock
  /// reads and the call.
  void expect_one_call(const std::string &name, uint64_t begin, uint64_t end) {
    const auto found = mine(name);
    ASSERT_EQ(found.size(), 1u) << name;
    const auto &slice = found[0];
    const double outer = static_cast<double>(end - begin);
    EXPECT_NEAR(static_cast<double>(slice.duration), outer, std::max(outer * 0.05, 10e6)) << name;
    EXPECT_GE(slice.begin + 2000, begin) << name;
    EXPECT_LE(slice.begin + slice.duration, end + 2000) << name;
    EXPECT_EQ(host_->string(slice.category), "osrt");
    EXPECT_EQ(slice.correlation, 0u);
  }

  SharedFakeHost *host_ = nullptr;
  void *instance_ = nullptr;
};

TEST(OsrtDescriptor, IsAProcessScopeSourceWithTheOsrtOptions) {
  const prof_plugin_descriptor *d = prof_plugin_entry();
  EXPECT_STREQ(d->name, "osrt");
  EXPECT_EQ(d->kind, PROF_KIND_SOURCE);
  EXPECT_EQ(d->scope, PROF_SCOPE_PROCESS);
  ASSERT_GE(d->option_count, 3u);
  EXPECT_STREQ(d->options[0].name, "threshold");
  EXPECT_STREQ(d->options[0].default_value, "1000");
  EXPECT_STREQ(d->options[1].name, "backtrace-threshold");
  EXPECT_STREQ(d->options[1].default_value, "80000");
  EXPECT_STREQ(d->options[2].name, "backtrace-depth");
  EXPECT_STREQ(d->options[2].default_value, "24");
  EXPECT_EQ(d->options[2].min, 1);
  EXPECT_EQ(d->options[2].max, 127);
}

TEST_F(OsrtTest, RejectsAnOutOfRangeDepth) {
  host_->set_option("backtrace-depth", "500");
  const prof_source_vtable *vtable = prof_plugin_entry()->source;
  void *instance = vtable->create(host_->api(), host_);
  EXPECT_EQ(vtable->configure(instance), PROF_ERROR);
  vtable->destroy(instance);
}

TEST_F(OsrtTest, ContendedMutexIsRecordedWithTheWait) {
  start();
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  std::atomic<bool> held{false};
  std::thread holder([&] {
    pthread_mutex_lock(&mutex);
    held = true;
    sleep_ms(50);
    pthread_mutex_unlock(&mutex);
  });
  while (!held)
    std::this_thread::yield();
  const uint64_t begin = now_ns();
  ASSERT_EQ(pthread_mutex_lock(&mutex), 0);
  const uint64_t end = now_ns();
  pthread_mutex_unlock(&mutex);
  holder.join();
  stop();
  EXPECT_GT(end - begin, 40 * kMs);
  expect_one_call("pthread_mutex_lock", begin, end);
  const auto track = host_->track(mine("pthread_mutex_lock").at(0).track);
  EXPECT_EQ(track.kind, PROF_TRACK_THREAD);
  EXPECT_EQ(host_->track(track.parent).kind, PROF_TRACK_PROCESS);
  EXPECT_EQ(host_->track(track.parent).pid, getpid());
}

TEST_F(OsrtTest, LocksThatDoNotBlockAreNotRecorded) {
  host_->set_option("threshold", "0");
  start();
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
  pthread_spinlock_t spin;
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(pthread_mutex_lock(&mutex), 0);
    pthread_mutex_unlock(&mutex);
    ASSERT_EQ(pthread_rwlock_rdlock(&rwlock), 0);
    pthread_rwlock_unlock(&rwlock);
    ASSERT_EQ(pthread_rwlock_wrlock(&rwlock), 0);
    pthread_rwlock_unlock(&rwlock);
    ASSERT_EQ(pthread_spin_lock(&spin), 0);
    pthread_spin_unlock(&spin);
  }
  stop();
  for (const char *name : {"pthread_mutex_lock", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock",
                           "pthread_spin_lock"})
    EXPECT_TRUE(host_->slices_named(name).empty()) << name;
}

TEST_F(OsrtTest, SleepsAreRecordedWithTheirLength) {
  start();
  uint64_t marks[8];
  marks[0] = now_ns();
  timespec twenty{0, 20 * 1000000};
  ASSERT_EQ(nanosleep(&twenty, nullptr), 0);
  marks[1] = now_ns();
  marks[2] = now_ns();
  ASSERT_EQ(usleep(20000), 0);
  marks[3] = now_ns();
  marks[4] = now_ns();
  ASSERT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &twenty, nullptr), 0);
  marks[5] = now_ns();
  marks[6] = now_ns();
  ASSERT_EQ(sleep(0), 0u);
  marks[7] = now_ns();
  stop();
  for (int i = 0; i < 6; i += 2)
    EXPECT_GE(marks[i + 1] - marks[i], 20 * kMs);
  expect_one_call("nanosleep", marks[0], marks[1]);
  expect_one_call("usleep", marks[2], marks[3]);
  expect_one_call("clock_nanosleep", marks[4], marks[5]);
}

TEST_F(OsrtTest, BlockingPipeReadAndWriteAreRecorded) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  start();
  std::thread writer([&] {
    sleep_ms(30);
    ASSERT_EQ(write(fds[1], "x", 1), 1);
  });
  char c = 0;
  const uint64_t read_begin = now_ns();
  ASSERT_EQ(read(fds[0], &c, 1), 1);
  const uint64_t read_end = now_ns();
  writer.join();
  EXPECT_EQ(c, 'x');

  // Fill the pipe, then a write blocks until a reader drains it.
  fcntl(fds[1], F_SETFL, O_NONBLOCK);
  static char chunk[4096];
  while (write(fds[1], chunk, sizeof chunk) > 0) {
  }
  fcntl(fds[1], F_SETFL, 0);
  std::thread reader([&] {
    sleep_ms(30);
    static char sink[1 << 16];
    ASSERT_GT(read(fds[0], sink, sizeof sink), 0);
  });
  const uint64_t write_begin = now_ns();
  ASSERT_EQ(write(fds[1], chunk, 1), 1);
  const uint64_t write_end = now_ns();
  reader.join();
  stop();
  close(fds[0]);
  close(fds[1]);
  EXPECT_GE(read_end - read_begin, 25 * kMs);
  expect_one_call("read", read_begin, read_end);
  // The filling writes each returned at once: only the blocked one is there.
  const auto writes = mine("write");
  ASSERT_FALSE(writes.empty());
  const auto &blocked = writes.back();
  const double outer = static_cast<double>(write_end - write_begin);
  EXPECT_NEAR(static_cast<double>(blocked.duration), outer, std::max(outer * 0.05, 10e6));
  EXPECT_GE(write_end - write_begin, 25 * kMs);
}

TEST_F(OsrtTest, CallsShorterThanTheThresholdAreNotRecorded) {
  host_->set_option("threshold", "10000000"); // 10 ms
  start();
  for (int i = 0; i < 3; ++i)
    usleep(1000);
  usleep(20000);
  stop();
  const auto found = mine("usleep");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_GE(found[0].duration, 20 * kMs);
}

TEST_F(OsrtTest, ReturnValuesAndErrnoAreThoseOfTheRealCall) {
  host_->set_option("threshold", "0"); // record everything...
  host_->set_clobber_errno(true);      // ...through a host that clobbers errno
  start();
  char c;
  errno = 0;
  EXPECT_EQ(read(-1, &c, 1), -1);
  EXPECT_EQ(errno, EBADF);
  errno = 0;
  EXPECT_EQ(open("/nonexistent/osrt-test", O_RDONLY), -1);
  EXPECT_EQ(errno, ENOENT);
  errno = 0;
  EXPECT_EQ(openat(AT_FDCWD, "/nonexistent/osrt-test", O_WRONLY | O_CREAT, 0600), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(fopen("/nonexistent/osrt-test", "r"), nullptr);
  EXPECT_EQ(errno, ENOENT);
  errno = 0;
  EXPECT_EQ(close(-1), -1);
  EXPECT_EQ(errno, EBADF);

  // A successful call leaves errno as it was.
  errno = EDOM;
  const int fd = open("/dev/null", O_WRONLY);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(write(fd, "abc", 3), 3);
  EXPECT_EQ(errno, EDOM);
  close(fd);

  // clock_nanosleep reports errors by return value.
  timespec bad{0, 2000000000};
  EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &bad, nullptr), EINVAL);

  // A timed lock that times out: ETIMEDOUT, recorded as a blocked wait.
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  std::atomic<bool> held{false}, release{false};
  std::thread holder([&] {
    pthread_mutex_lock(&mutex);
    held = true;
    while (!release)
      sleep_ms(1);
    pthread_mutex_unlock(&mutex);
  });
  while (!held)
    std::this_thread::yield();
  const timespec deadline = after_ms(CLOCK_REALTIME, 20);
  EXPECT_EQ(pthread_mutex_timedlock(&mutex, &deadline), ETIMEDOUT);
  release = true;
  holder.join();

  // sem_wait blocks after its sem_trywait failed with EAGAIN: errno untouched.
  sem_t sem;
  sem_init(&sem, 0, 0);
  std::thread poster([&] {
    sleep_ms(10);
    sem_post(&sem);
  });
  errno = EDOM;
  EXPECT_EQ(sem_wait(&sem), 0);
  EXPECT_EQ(errno, EDOM);
  poster.join();
  errno = 0;
  const timespec sem_deadline = after_ms(CLOCK_REALTIME, 10);
  EXPECT_EQ(sem_timedwait(&sem, &sem_deadline), -1);
  EXPECT_EQ(errno, ETIMEDOUT);
  sem_destroy(&sem);
  stop();

  EXPECT_FALSE(mine("read").empty());
  EXPECT_FALSE(mine("open").empty());
  const auto timed = mine("pthread_mutex_timedlock");
  ASSERT_EQ(timed.size(), 1u);
  EXPECT_GE(timed[0].duration, 15 * kMs);
  EXPECT_EQ(mine("sem_wait").size(), 1u);
  EXPECT_EQ(mine("sem_timedwait").size(), 1u);
}

TEST_F(OsrtTest, ConditionVariablesWorkAndTheirWaitsAreRecorded) {
  start();
  // Producer/consumer on the C API: wrong pthread_cond_* versions would
  // corrupt the condition variable and hang or lose wake-ups here.
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  constexpr int kItems = 2000;
  int queued = 0, consumed = 0;
  std::thread producer([&] {
    for (int i = 0; i < kItems; ++i) {
      pthread_mutex_lock(&mutex);
      ++queued;
      pthread_cond_signal(&cond);
      pthread_mutex_unlock(&mutex);
      if (i % 500 == 0) usleep(2000);
    }
  });
  pthread_mutex_lock(&mutex);
  while (consumed < kItems) {
    while (queued == 0)
      pthread_cond_wait(&cond, &mutex);
    consumed += queued;
    queued = 0;
  }
  pthread_mutex_unlock(&mutex);
  producer.join();
  EXPECT_EQ(consumed, kItems);

  // std::condition_variable goes through libstdc++'s versioned reference.
  std::mutex std_mutex;
  std::condition_variable std_cond;
  bool ready = false;
  std::thread notifier([&] {
    sleep_ms(10);
    std::lock_guard lock(std_mutex);
    ready = true;
    std_cond.notify_one();
  });
  {
    std::unique_lock lock(std_mutex);
    std_cond.wait(lock, [&] { return ready; });
  }
  notifier.join();

  // A timed wait that times out.
  pthread_mutex_lock(&mutex);
  const timespec deadline = after_ms(CLOCK_REALTIME, 20);
  const uint64_t begin = now_ns();
  EXPECT_EQ(pthread_cond_timedwait(&cond, &mutex, &deadline), ETIMEDOUT);
  const uint64_t end = now_ns();
  pthread_mutex_unlock(&mutex);
  stop();

  EXPECT_FALSE(mine("pthread_cond_wait").empty());
  expect_one_call("pthread_cond_timedwait", begin, end);
}

TEST_F(OsrtTest, BarrierAndJoinWaitsAreRecorded) {
  start();
  struct Shared {
    pthread_barrier_t barrier;
    std::atomic<uint64_t> arrived{0}, exiting{0};
  } shared;
  pthread_barrier_init(&shared.barrier, nullptr, 2);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, nullptr,
                [](void *arg) -> void * {
                  auto &shared = *static_cast<Shared *>(arg);
                  sleep_ms(20);
                  shared.arrived = now_ns();
                  pthread_barrier_wait(&shared.barrier);
                  sleep_ms(20);
                  shared.exiting = now_ns();
                  return nullptr;
                },
                &shared),
            0);
  const uint64_t barrier_begin = now_ns();
  pthread_barrier_wait(&shared.barrier);
  const uint64_t join_begin = now_ns();
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_barrier_destroy(&shared.barrier);
  stop();
  // Each wait ends no earlier than the other thread got there, however the
  // machine scheduled them (a loaded machine can make either wait short).
  ASSERT_EQ(mine("pthread_barrier_wait").size(), 1u);
  const auto barrier = mine("pthread_barrier_wait")[0];
  EXPECT_GE(barrier.begin + 2000, barrier_begin); // 2 us: the TSC's conversion
  EXPECT_GE(barrier.begin + barrier.duration + 2000, shared.arrived.load());
  ASSERT_EQ(mine("pthread_join").size(), 1u);
  const auto join = mine("pthread_join")[0];
  EXPECT_GE(join.begin + 2000, join_begin);
  EXPECT_GE(join.begin + join.duration + 2000, shared.exiting.load());
}

TEST_F(OsrtTest, ForkedChildRecordsOnItsOwnTrack) {
  start();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    usleep(20000);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  stop();
  int in_child = 0;
  for (const auto &slice : host_->slices_named("usleep")) {
    const auto track = host_->track(slice.track);
    if (track.pid != child) continue;
    ++in_child;
    EXPECT_EQ(track.kind, PROF_TRACK_THREAD);
    EXPECT_EQ(track.tid, child);
    const auto process = host_->track(track.parent);
    EXPECT_EQ(process.kind, PROF_TRACK_PROCESS);
    EXPECT_EQ(process.pid, child);
    EXPECT_GE(slice.duration, 20 * kMs);
  }
  EXPECT_EQ(in_child, 1);
  ASSERT_EQ(mine("waitpid").size(), 1u); // the parent's wait, on the parent's track
}

} // namespace

// Exported (the test links with -rdynamic) so dladdr can name it.
__attribute__((noinline)) void OsrtStackMarkerFunction(int microseconds) {
  usleep(static_cast<useconds_t>(microseconds));
  asm volatile("" ::: "memory"); // keep the call from becoming a tail call
}

__attribute__((noinline)) void OsrtOpenCallMarkerFunction(int fd) {
  char byte;
  if (read(fd, &byte, 1) != 1) std::abort();
  asm volatile("" ::: "memory");
}

__attribute__((noinline)) void OsrtLockMarkerFunction(pthread_mutex_t *mutex) {
  if (pthread_mutex_lock(mutex) != 0) std::abort();
  pthread_mutex_unlock(mutex);
  asm volatile("" ::: "memory");
}

namespace {

TEST_F(OsrtTest, CallsOpenAtADumpAreUnfinishedSlicesWithTheirCallSite) {
  start();
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  std::atomic<int> reader_tid{0};
  std::thread reader([&] {
    reader_tid = gettid();
    OsrtOpenCallMarkerFunction(pipe_fds[0]);
  });
  // A failed assertion below still ends the reader's read.
  struct Release {
    int fd;
    std::thread &thread;
    ~Release() {
      if (!thread.joinable()) return;
      (void)!write(fd, "x", 1);
      thread.join();
    }
  } release{pipe_fds[1], reader};
  while (reader_tid == 0)
    sleep_ms(1);
  sleep_ms(50); // inside read() by now
  const prof_source_vtable *vtable = prof_plugin_entry()->source;
  ASSERT_NE(vtable->emit_unfinished, nullptr);
  const uint64_t dumped = now_ns();
  ASSERT_EQ(vtable->emit_unfinished(instance_, dumped), PROF_OK);

  auto on_reader = [&](const std::string &name) {
    std::vector<SharedFakeHost::Slice> out;
    for (const auto &slice : host_->slices_named(name))
      if (host_->track(slice.track).tid == reader_tid) out.push_back(slice);
    return out;
  };
  const auto open = on_reader("read");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].begin + open[0].duration, dumped);
  EXPECT_GE(open[0].duration, 40 * kMs);
  EXPECT_EQ(host_->string(open[0].category), "osrt");
  // Other threads of this test program may be inside calls too: the reader's only.
  const auto reader_samples = [&] {
    std::vector<SharedFakeHost::Sample> out;
    for (const auto &sample : host_->samples())
      if (host_->track(sample.track).tid == reader_tid) out.push_back(sample);
    return out;
  };
  const auto samples = reader_samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].track, open[0].track);
  EXPECT_EQ(samples[0].ts, open[0].begin);
  const auto frames = host_->stack_frames(samples[0].stack);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0], "read");
  EXPECT_NE(frames[1].find("OsrtOpenCallMarkerFunction"), std::string::npos) << frames[1];

  ASSERT_EQ(write(pipe_fds[1], "x", 1), 1);
  reader.join();
  ASSERT_EQ(vtable->emit_unfinished(instance_, now_ns()), PROF_OK);
  EXPECT_EQ(on_reader("read").size(), 2u); // and the call finished: nothing open now
  EXPECT_EQ(reader_samples().size(), 2u);  // the finished call's whole stack
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

TEST_F(OsrtTest, LockBlockedAtADumpIsAnUnfinishedSliceWithItsCallSite) {
  start();
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  ASSERT_EQ(pthread_mutex_lock(&mutex), 0);
  std::atomic<int> waiter_tid{0};
  std::thread waiter([&] {
    waiter_tid = gettid();
    OsrtLockMarkerFunction(&mutex);
  });
  struct Release {
    pthread_mutex_t &mutex;
    std::thread &thread;
    ~Release() {
      if (!thread.joinable()) return;
      pthread_mutex_unlock(&mutex);
      thread.join();
    }
  } release{mutex, waiter};
  while (waiter_tid == 0)
    sleep_ms(1);
  sleep_ms(50); // blocked in pthread_mutex_lock by now
  const prof_source_vtable *vtable = prof_plugin_entry()->source;
  const uint64_t dumped = now_ns();
  ASSERT_EQ(vtable->emit_unfinished(instance_, dumped), PROF_OK);

  std::vector<SharedFakeHost::Slice> open;
  for (const auto &slice : host_->slices_named("pthread_mutex_lock"))
    if (host_->track(slice.track).tid == waiter_tid) open.push_back(slice);
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].begin + open[0].duration, dumped);
  EXPECT_GE(open[0].duration, 40 * kMs);
  std::vector<std::string> frames;
  for (const auto &sample : host_->samples())
    if (sample.track == open[0].track) frames = host_->stack_frames(sample.stack);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0], "pthread_mutex_lock");
  EXPECT_NE(frames[1].find("OsrtLockMarkerFunction"), std::string::npos) << frames[1];
}

TEST_F(OsrtTest, SlowCallCarriesItsCallStack) {
  start(); // default backtrace threshold: 80 us
  OsrtStackMarkerFunction(2000);
  stop();
  const auto found = mine("usleep");
  ASSERT_FALSE(found.empty());
  const auto &slice = found[0];
  const auto samples = host_->samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].track, slice.track);
  EXPECT_EQ(samples[0].ts, slice.begin);
  const auto frames = host_->stack_frames(samples[0].stack);
  ASSERT_GE(frames.size(), 2u);
  EXPECT_EQ(frames[0], "usleep");
  EXPECT_NE(frames[1].find("OsrtStackMarkerFunction"), std::string::npos) << frames[1];
  EXPECT_LE(frames.size(), 24u);
}

TEST_F(OsrtTest, BacktraceDepthLimitsTheStack) {
  host_->set_option("backtrace-depth", "2");
  host_->set_option("backtrace-threshold", "0");
  start();
  OsrtStackMarkerFunction(2000);
  stop();
  const auto samples = host_->samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(host_->stack_frames(samples[0].stack).size(), 2u);
}

TEST_F(OsrtTest, MonotonicTimerRecordsTheSameWaits) {
  host_->set_option("timer", "monotonic");
  start();
  const uint64_t begin = now_ns();
  usleep(20000);
  const uint64_t end = now_ns();
  stop();
  expect_one_call("usleep", begin, end);
}

TEST_F(OsrtTest, NothingIsRecordedBeforeStartOrAfterStopOrWhileSuspended) {
  const prof_source_vtable *vtable = prof_plugin_entry()->source;
  EXPECT_EQ(usleep(2000), 0); // no instance at all
  instance_ = vtable->create(host_->api(), host_);
  ASSERT_EQ(vtable->configure(instance_), PROF_OK);
  EXPECT_EQ(usleep(2000), 0); // created, not started
  ASSERT_EQ(vtable->start(instance_), PROF_OK);
  ASSERT_EQ(vtable->suspend(instance_), PROF_OK);
  EXPECT_EQ(usleep(2000), 0); // suspended
  ASSERT_EQ(vtable->resume(instance_), PROF_OK);
  EXPECT_EQ(usleep(3000), 0); // the one recorded
  ASSERT_EQ(vtable->stop(instance_), PROF_OK);
  EXPECT_EQ(usleep(2000), 0); // stopped
  char c;
  EXPECT_EQ(read(-1, &c, 1), -1);
  EXPECT_EQ(errno, EBADF);
  const auto found = mine("usleep");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_GE(found[0].duration, 3 * kMs);
}

TEST_F(OsrtTest, OnlyOneInstanceTracesAProcess) {
  start();
  const prof_source_vtable *vtable = prof_plugin_entry()->source;
  void *second = vtable->create(host_->api(), host_);
  ASSERT_EQ(vtable->configure(second), PROF_OK);
  EXPECT_EQ(vtable->start(second), PROF_ERROR);
  vtable->destroy(second);
  usleep(2000); // still recorded by the first
  stop();
  EXPECT_EQ(mine("usleep").size(), 1u);
}

} // namespace
