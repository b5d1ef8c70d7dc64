// The C library functions the osrt source times, as one list: each gets an
// OsrtFunction value (its slot in per-function tables) and its name, which is
// the name of the slices recorded for it.
#ifndef PROF_PLUGINS_OSRT_OSRT_FUNCTIONS_HPP
#define PROF_PLUGINS_OSRT_OSRT_FUNCTIONS_HPP

#include <cstddef>

namespace prof::osrt {

#define PROF_OSRT_FUNCTIONS(X)                                                                     \
  /* locks and waits */                                                                            \
  X(pthread_mutex_lock)                                                                            \
  X(pthread_mutex_timedlock) X(pthread_rwlock_rdlock) X(pthread_rwlock_wrlock)                     \
      X(pthread_spin_lock) X(pthread_cond_wait) X(pthread_cond_timedwait) X(pthread_barrier_wait)  \
          X(pthread_join) X(sem_wait) X(sem_timedwait)                  /* sleeps */               \
      X(sleep) X(usleep) X(nanosleep) X(clock_nanosleep) X(sched_yield) /* file io */              \
      X(read) X(write) X(pread) X(pwrite) X(readv) X(writev) X(open) X(openat) X(close) X(fsync)   \
          X(fdatasync) X(ioctl) X(mmap) X(munmap) X(poll) X(ppoll) X(select) X(pselect)            \
              X(epoll_wait) X(epoll_pwait) X(epoll_pwait2) /* sockets */                           \
      X(accept) X(accept4) X(connect) X(recv) X(recvfrom) X(recvmsg) X(send) X(sendto)             \
          X(sendmsg)                                  /* stdio */                                  \
      X(fopen) X(fclose) X(fread) X(fwrite) X(fflush) /* processes */                              \
      X(wait) X(waitpid) X(system) X(popen) X(pclose)

/// One timed function. Aliases (pread64, open64, __read_chk, ...) record
/// under the name of the function they stand for.
enum class OsrtFunction : unsigned {
#define PROF_OSRT_ENUM(name) name,
  PROF_OSRT_FUNCTIONS(PROF_OSRT_ENUM)
#undef PROF_OSRT_ENUM
};

#define PROF_OSRT_COUNT(name) +1
inline constexpr std::size_t kOsrtFunctionCount = 0 PROF_OSRT_FUNCTIONS(PROF_OSRT_COUNT);
#undef PROF_OSRT_COUNT

/// Slice names, indexed by OsrtFunction.
inline constexpr const char *kOsrtFunctionNames[] = {
#define PROF_OSRT_NAME(name) #name,
    PROF_OSRT_FUNCTIONS(PROF_OSRT_NAME)
#undef PROF_OSRT_NAME
};

static_assert(sizeof(kOsrtFunctionNames) / sizeof(kOsrtFunctionNames[0]) == kOsrtFunctionCount);

} // namespace prof::osrt

#endif
