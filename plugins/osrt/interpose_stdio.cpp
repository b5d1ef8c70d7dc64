// Interposers of the stdio calls that may reach the kernel: fopen, fclose,
// fread, fwrite, fflush (with fopen64 and the _FORTIFY_SOURCE __fread_chk).
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <cstdio>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

extern "C" {
size_t __fread_chk(void *buf, size_t buflen, size_t size, size_t count, FILE *stream);
}

extern "C" {

PROF_OSRT_EXPORT FILE *fopen(const char *path, const char *mode) {
  PROF_OSRT_REAL(fopen);
  PROF_OSRT_REAL_OR(nullptr);
  return timed_call(OsrtFunction::fopen, PROF_OSRT_CALLER, [&] { return fn(path, mode); });
}

PROF_OSRT_EXPORT FILE *fopen64(const char *path, const char *mode) {
  PROF_OSRT_REAL(fopen64);
  PROF_OSRT_REAL_OR(nullptr);
  return timed_call(OsrtFunction::fopen, PROF_OSRT_CALLER, [&] { return fn(path, mode); });
}

PROF_OSRT_EXPORT int fclose(FILE *stream) {
  PROF_OSRT_REAL(fclose);
  PROF_OSRT_REAL_OR(EOF);
  return timed_call(OsrtFunction::fclose, PROF_OSRT_CALLER, [&] { return fn(stream); });
}

PROF_OSRT_EXPORT size_t fread(void *buf, size_t size, size_t count, FILE *stream) {
  PROF_OSRT_REAL(fread);
  PROF_OSRT_REAL_OR(0);
  return timed_call(OsrtFunction::fread, PROF_OSRT_CALLER,
                    [&] { return fn(buf, size, count, stream); });
}

PROF_OSRT_EXPORT size_t __fread_chk(void *buf, size_t buflen, size_t size, size_t count,
                                    FILE *stream) {
  PROF_OSRT_REAL(__fread_chk);
  PROF_OSRT_REAL_OR(0);
  return timed_call(OsrtFunction::fread, PROF_OSRT_CALLER,
                    [&] { return fn(buf, buflen, size, count, stream); });
}

PROF_OSRT_EXPORT size_t fwrite(const void *buf, size_t size, size_t count, FILE *stream) {
  PROF_OSRT_REAL(fwrite);
  PROF_OSRT_REAL_OR(0);
  return timed_call(OsrtFunction::fwrite, PROF_OSRT_CALLER,
                    [&] { return fn(buf, size, count, stream); });
}

PROF_OSRT_EXPORT int fflush(FILE *stream) {
  PROF_OSRT_REAL(fflush);
  PROF_OSRT_REAL_OR(EOF);
  return timed_call(OsrtFunction::fflush, PROF_OSRT_CALLER, [&] { return fn(stream); });
}

} // extern "C"
