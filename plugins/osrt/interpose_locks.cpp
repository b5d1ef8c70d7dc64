// Interposers of the pthread and semaphore waits. A lock is tried first and
// timed only when it would have blocked; condition waits, barriers and joins
// are always timed.
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <pthread.h>
#include <semaphore.h>

using prof::osrt::lock_call;
using prof::osrt::OsrtFunction;
using prof::osrt::RealFunction;
using prof::osrt::timed_call;

// glibc keeps two pthread_cond_* ABIs: GLIBC_2.3.2 (the one headers and every
// program since 2003 use) and the GLIBC_2.2.5 compatibility one for older
// binaries. dlsym() without a version may hand back the old one, which
// corrupts a new-style condition variable, so the real functions are looked
// up by version. The plugin exports its interposers under both versions (see
// osrt.map); the test binary, linked without the map, exports one unversioned
// definition, which binds to references of any version.
#if defined(__x86_64__)
#define PROF_OSRT_COND_VERSION "GLIBC_2.3.2"
#define PROF_OSRT_COND_COMPAT_VERSION "GLIBC_2.2.5"
#else
#define PROF_OSRT_COND_VERSION nullptr
#endif

namespace {

using CondWaitFn = int (*)(pthread_cond_t *, pthread_mutex_t *);
using CondTimedWaitFn = int (*)(pthread_cond_t *, pthread_mutex_t *, const timespec *);

int cond_wait(RealFunction<CondWaitFn> &real, pthread_cond_t *cond, pthread_mutex_t *mutex,
              void *caller) {
  CondWaitFn fn = real.get();
  if (fn == nullptr) return ENOSYS;
  return timed_call(OsrtFunction::pthread_cond_wait, caller, [&] { return fn(cond, mutex); });
}

int cond_timedwait(RealFunction<CondTimedWaitFn> &real, pthread_cond_t *cond,
                   pthread_mutex_t *mutex, const timespec *abstime, void *caller) {
  CondTimedWaitFn fn = real.get();
  if (fn == nullptr) return ENOSYS;
  return timed_call(OsrtFunction::pthread_cond_timedwait, caller,
                    [&] { return fn(cond, mutex, abstime); });
}

constinit RealFunction<CondWaitFn> real_cond_wait{"pthread_cond_wait", PROF_OSRT_COND_VERSION};
constinit RealFunction<CondTimedWaitFn> real_cond_timedwait{"pthread_cond_timedwait",
                                                            PROF_OSRT_COND_VERSION};

/// sem_wait and sem_timedwait: sem_trywait first; its EAGAIN must not leak
/// into errno when the blocking call then succeeds.
template <class Block> int sem_call(OsrtFunction function, void *caller, sem_t *sem, Block block) {
  if (!prof::osrt::tracing_here()) return block();
  PROF_OSRT_NEXT(real_try, sem_trywait)
  auto try_fn = real_try.get();
  if (try_fn == nullptr) return block();
  const int saved_errno = errno;
  if (try_fn(sem) == 0) return 0;
  if (errno != EAGAIN) return -1;
  errno = saved_errno;
  return timed_call(function, caller, block);
}

} // namespace

extern "C" {

#if defined(PROF_OSRT_VERSIONED_SYMBOLS) && defined(__x86_64__)
PROF_OSRT_EXPORT int prof_osrt_cond_wait_2_3_2(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  return cond_wait(real_cond_wait, cond, mutex, PROF_OSRT_CALLER);
}
PROF_OSRT_EXPORT int prof_osrt_cond_timedwait_2_3_2(pthread_cond_t *cond, pthread_mutex_t *mutex,
                                                    const timespec *abstime) {
  return cond_timedwait(real_cond_timedwait, cond, mutex, abstime, PROF_OSRT_CALLER);
}
PROF_OSRT_EXPORT int prof_osrt_cond_wait_2_2_5(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  static constinit RealFunction<CondWaitFn> real{"pthread_cond_wait",
                                                 PROF_OSRT_COND_COMPAT_VERSION};
  return cond_wait(real, cond, mutex, PROF_OSRT_CALLER);
}
PROF_OSRT_EXPORT int prof_osrt_cond_timedwait_2_2_5(pthread_cond_t *cond, pthread_mutex_t *mutex,
                                                    const timespec *abstime) {
  static constinit RealFunction<CondTimedWaitFn> real{"pthread_cond_timedwait",
                                                      PROF_OSRT_COND_COMPAT_VERSION};
  return cond_timedwait(real, cond, mutex, abstime, PROF_OSRT_CALLER);
}
__asm__(".symver prof_osrt_cond_wait_2_3_2, pthread_cond_wait@@GLIBC_2.3.2");
__asm__(".symver prof_osrt_cond_timedwait_2_3_2, pthread_cond_timedwait@@GLIBC_2.3.2");
__asm__(".symver prof_osrt_cond_wait_2_2_5, pthread_cond_wait@GLIBC_2.2.5");
__asm__(".symver prof_osrt_cond_timedwait_2_2_5, pthread_cond_timedwait@GLIBC_2.2.5");
#else
PROF_OSRT_EXPORT int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  return cond_wait(real_cond_wait, cond, mutex, PROF_OSRT_CALLER);
}
PROF_OSRT_EXPORT int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                                            const timespec *abstime) {
  return cond_timedwait(real_cond_timedwait, cond, mutex, abstime, PROF_OSRT_CALLER);
}
#endif

PROF_OSRT_EXPORT int pthread_mutex_lock(pthread_mutex_t *mutex) noexcept {
  PROF_OSRT_REAL(pthread_mutex_lock);
  PROF_OSRT_REAL_OR(ENOSYS);
  PROF_OSRT_NEXT(real_try, pthread_mutex_trylock)
  return lock_call(
      OsrtFunction::pthread_mutex_lock, PROF_OSRT_CALLER,
      [mutex] {
        auto try_fn = real_try.get();
        return try_fn != nullptr ? try_fn(mutex) : EBUSY;
      },
      [fn, mutex] { return fn(mutex); });
}

PROF_OSRT_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *mutex,
                                             const timespec *abstime) noexcept {
  PROF_OSRT_REAL(pthread_mutex_timedlock);
  PROF_OSRT_REAL_OR(ENOSYS);
  PROF_OSRT_NEXT(real_try, pthread_mutex_trylock)
  return lock_call(
      OsrtFunction::pthread_mutex_timedlock, PROF_OSRT_CALLER,
      [mutex] {
        auto try_fn = real_try.get();
        return try_fn != nullptr ? try_fn(mutex) : EBUSY;
      },
      [fn, mutex, abstime] { return fn(mutex, abstime); });
}

PROF_OSRT_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *lock) noexcept {
  PROF_OSRT_REAL(pthread_rwlock_rdlock);
  PROF_OSRT_REAL_OR(ENOSYS);
  PROF_OSRT_NEXT(real_try, pthread_rwlock_tryrdlock)
  return lock_call(
      OsrtFunction::pthread_rwlock_rdlock, PROF_OSRT_CALLER,
      [lock] {
        auto try_fn = real_try.get();
        return try_fn != nullptr ? try_fn(lock) : EBUSY;
      },
      [fn, lock] { return fn(lock); });
}

PROF_OSRT_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *lock) noexcept {
  PROF_OSRT_REAL(pthread_rwlock_wrlock);
  PROF_OSRT_REAL_OR(ENOSYS);
  PROF_OSRT_NEXT(real_try, pthread_rwlock_trywrlock)
  return lock_call(
      OsrtFunction::pthread_rwlock_wrlock, PROF_OSRT_CALLER,
      [lock] {
        auto try_fn = real_try.get();
        return try_fn != nullptr ? try_fn(lock) : EBUSY;
      },
      [fn, lock] { return fn(lock); });
}

PROF_OSRT_EXPORT int pthread_spin_lock(pthread_spinlock_t *lock) noexcept {
  PROF_OSRT_REAL(pthread_spin_lock);
  PROF_OSRT_REAL_OR(ENOSYS);
  PROF_OSRT_NEXT(real_try, pthread_spin_trylock)
  return lock_call(
      OsrtFunction::pthread_spin_lock, PROF_OSRT_CALLER,
      [lock] {
        auto try_fn = real_try.get();
        return try_fn != nullptr ? try_fn(lock) : EBUSY;
      },
      [fn, lock] { return fn(lock); });
}

PROF_OSRT_EXPORT int pthread_barrier_wait(pthread_barrier_t *barrier) noexcept {
  PROF_OSRT_REAL(pthread_barrier_wait);
  PROF_OSRT_REAL_OR(ENOSYS);
  return timed_call(OsrtFunction::pthread_barrier_wait, PROF_OSRT_CALLER,
                    [&] { return fn(barrier); });
}

PROF_OSRT_EXPORT int pthread_join(pthread_t thread, void **result) {
  PROF_OSRT_REAL(pthread_join);
  PROF_OSRT_REAL_OR(ENOSYS);
  return timed_call(OsrtFunction::pthread_join, PROF_OSRT_CALLER,
                    [&] { return fn(thread, result); });
}

PROF_OSRT_EXPORT int sem_wait(sem_t *sem) {
  PROF_OSRT_REAL(sem_wait);
  PROF_OSRT_REAL_OR(-1);
  return sem_call(OsrtFunction::sem_wait, PROF_OSRT_CALLER, sem, [&] { return fn(sem); });
}

PROF_OSRT_EXPORT int sem_timedwait(sem_t *sem, const timespec *abstime) {
  PROF_OSRT_REAL(sem_timedwait);
  PROF_OSRT_REAL_OR(-1);
  return sem_call(OsrtFunction::sem_timedwait, PROF_OSRT_CALLER, sem,
                  [&] { return fn(sem, abstime); });
}

} // extern "C"
