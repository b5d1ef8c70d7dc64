// Interposers of the calls that wait for other processes: wait, waitpid,
// system, popen and pclose (where popen's child is waited for).
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

extern "C" {

PROF_OSRT_EXPORT pid_t wait(int *status) {
  PROF_OSRT_REAL(wait);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::wait, PROF_OSRT_CALLER, [&] { return fn(status); });
}

PROF_OSRT_EXPORT pid_t waitpid(pid_t pid, int *status, int options) {
  PROF_OSRT_REAL(waitpid);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::waitpid, PROF_OSRT_CALLER,
                    [&] { return fn(pid, status, options); });
}

PROF_OSRT_EXPORT int system(const char *command) {
  PROF_OSRT_REAL(system);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::system, PROF_OSRT_CALLER, [&] { return fn(command); });
}

PROF_OSRT_EXPORT FILE *popen(const char *command, const char *mode) {
  PROF_OSRT_REAL(popen);
  PROF_OSRT_REAL_OR(nullptr);
  return timed_call(OsrtFunction::popen, PROF_OSRT_CALLER, [&] { return fn(command, mode); });
}

PROF_OSRT_EXPORT int pclose(FILE *stream) {
  PROF_OSRT_REAL(pclose);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pclose, PROF_OSRT_CALLER, [&] { return fn(stream); });
}

} // extern "C"
