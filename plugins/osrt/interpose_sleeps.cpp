// Interposers of the sleeps and of sched_yield.
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <sched.h>
#include <time.h>
#include <unistd.h>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

extern "C" {

PROF_OSRT_EXPORT unsigned int sleep(unsigned int seconds) {
  PROF_OSRT_REAL(sleep);
  PROF_OSRT_REAL_OR(seconds);
  return timed_call(OsrtFunction::sleep, PROF_OSRT_CALLER, [&] { return fn(seconds); });
}

PROF_OSRT_EXPORT int usleep(useconds_t microseconds) {
  PROF_OSRT_REAL(usleep);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::usleep, PROF_OSRT_CALLER, [&] { return fn(microseconds); });
}

PROF_OSRT_EXPORT int nanosleep(const timespec *request, timespec *remaining) {
  PROF_OSRT_REAL(nanosleep);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::nanosleep, PROF_OSRT_CALLER,
                    [&] { return fn(request, remaining); });
}

PROF_OSRT_EXPORT int clock_nanosleep(clockid_t clock, int flags, const timespec *request,
                                     timespec *remaining) {
  PROF_OSRT_REAL(clock_nanosleep);
  PROF_OSRT_REAL_OR(ENOSYS); // returns the error number, errno untouched
  return timed_call(OsrtFunction::clock_nanosleep, PROF_OSRT_CALLER,
                    [&] { return fn(clock, flags, request, remaining); });
}

PROF_OSRT_EXPORT int sched_yield() noexcept {
  PROF_OSRT_REAL(sched_yield);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::sched_yield, PROF_OSRT_CALLER, [&] { return fn(); });
}

} // extern "C"
