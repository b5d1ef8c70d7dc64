// Interposers of file descriptor io: read/write and their positioned,
// vectored and _FORTIFY_SOURCE (__*_chk) forms, open and its variants,
// close, fsync, fdatasync, ioctl, mmap and munmap. The 64-bit and checked
// aliases record under the name of the function they stand for.
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdarg>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

// The checked variants that programs built with _FORTIFY_SOURCE call.
extern "C" {
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t offset, size_t buflen);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
}

namespace {

/// Whether open's variadic mode argument is present.
bool takes_mode(int flags) { return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE; }

} // namespace

/// Reads open's optional mode argument following `last`.
#define PROF_OSRT_OPEN_MODE(last)                                                                  \
  mode_t mode = 0;                                                                                 \
  if (takes_mode(flags)) {                                                                         \
    va_list args;                                                                                  \
    va_start(args, last);                                                                          \
    mode = va_arg(args, mode_t);                                                                   \
    va_end(args);                                                                                  \
  }

extern "C" {

PROF_OSRT_EXPORT ssize_t read(int fd, void *buf, size_t count) {
  PROF_OSRT_REAL(read);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::read, PROF_OSRT_CALLER, [&] { return fn(fd, buf, count); });
}

PROF_OSRT_EXPORT ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen) {
  PROF_OSRT_REAL(__read_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::read, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, buflen); });
}

PROF_OSRT_EXPORT ssize_t write(int fd, const void *buf, size_t count) {
  PROF_OSRT_REAL(write);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::write, PROF_OSRT_CALLER, [&] { return fn(fd, buf, count); });
}

PROF_OSRT_EXPORT ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
  PROF_OSRT_REAL(pread);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pread, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset); });
}

PROF_OSRT_EXPORT ssize_t pread64(int fd, void *buf, size_t count, off64_t offset) {
  PROF_OSRT_REAL(pread64);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pread, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset); });
}

PROF_OSRT_EXPORT ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen) {
  PROF_OSRT_REAL(__pread_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pread, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset, buflen); });
}

PROF_OSRT_EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t offset,
                                       size_t buflen) {
  PROF_OSRT_REAL(__pread64_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pread, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset, buflen); });
}

PROF_OSRT_EXPORT ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  PROF_OSRT_REAL(pwrite);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pwrite, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset); });
}

PROF_OSRT_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  PROF_OSRT_REAL(pwrite64);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pwrite, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, count, offset); });
}

PROF_OSRT_EXPORT ssize_t readv(int fd, const iovec *iov, int count) {
  PROF_OSRT_REAL(readv);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::readv, PROF_OSRT_CALLER, [&] { return fn(fd, iov, count); });
}

PROF_OSRT_EXPORT ssize_t writev(int fd, const iovec *iov, int count) {
  PROF_OSRT_REAL(writev);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::writev, PROF_OSRT_CALLER, [&] { return fn(fd, iov, count); });
}

PROF_OSRT_EXPORT int open(const char *path, int flags, ...) {
  PROF_OSRT_OPEN_MODE(flags);
  PROF_OSRT_REAL(open);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::open, PROF_OSRT_CALLER, [&] { return fn(path, flags, mode); });
}

PROF_OSRT_EXPORT int open64(const char *path, int flags, ...) {
  PROF_OSRT_OPEN_MODE(flags);
  PROF_OSRT_REAL(open64);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::open, PROF_OSRT_CALLER, [&] { return fn(path, flags, mode); });
}

PROF_OSRT_EXPORT int __open_2(const char *path, int flags) {
  PROF_OSRT_REAL(__open_2);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::open, PROF_OSRT_CALLER, [&] { return fn(path, flags); });
}

PROF_OSRT_EXPORT int __open64_2(const char *path, int flags) {
  PROF_OSRT_REAL(__open64_2);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::open, PROF_OSRT_CALLER, [&] { return fn(path, flags); });
}

PROF_OSRT_EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  PROF_OSRT_OPEN_MODE(flags);
  PROF_OSRT_REAL(openat);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::openat, PROF_OSRT_CALLER,
                    [&] { return fn(dirfd, path, flags, mode); });
}

PROF_OSRT_EXPORT int openat64(int dirfd, const char *path, int flags, ...) {
  PROF_OSRT_OPEN_MODE(flags);
  PROF_OSRT_REAL(openat64);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::openat, PROF_OSRT_CALLER,
                    [&] { return fn(dirfd, path, flags, mode); });
}

PROF_OSRT_EXPORT int __openat_2(int dirfd, const char *path, int flags) {
  PROF_OSRT_REAL(__openat_2);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::openat, PROF_OSRT_CALLER, [&] { return fn(dirfd, path, flags); });
}

PROF_OSRT_EXPORT int __openat64_2(int dirfd, const char *path, int flags) {
  PROF_OSRT_REAL(__openat64_2);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::openat, PROF_OSRT_CALLER, [&] { return fn(dirfd, path, flags); });
}

PROF_OSRT_EXPORT int close(int fd) {
  PROF_OSRT_REAL(close);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::close, PROF_OSRT_CALLER, [&] { return fn(fd); });
}

PROF_OSRT_EXPORT int fsync(int fd) {
  PROF_OSRT_REAL(fsync);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::fsync, PROF_OSRT_CALLER, [&] { return fn(fd); });
}

PROF_OSRT_EXPORT int fdatasync(int fd) {
  PROF_OSRT_REAL(fdatasync);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::fdatasync, PROF_OSRT_CALLER, [&] { return fn(fd); });
}

PROF_OSRT_EXPORT int ioctl(int fd, unsigned long request, ...) noexcept {
  // Every ioctl takes at most one argument, passed as a pointer-sized word.
  va_list args;
  va_start(args, request);
  void *argument = va_arg(args, void *);
  va_end(args);
  PROF_OSRT_REAL(ioctl);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::ioctl, PROF_OSRT_CALLER,
                    [&] { return fn(fd, request, argument); });
}

PROF_OSRT_EXPORT void *mmap(void *address, size_t length, int protection, int flags, int fd,
                            off_t offset) noexcept {
  PROF_OSRT_REAL(mmap);
  PROF_OSRT_REAL_OR(MAP_FAILED);
  return timed_call(OsrtFunction::mmap, PROF_OSRT_CALLER,
                    [&] { return fn(address, length, protection, flags, fd, offset); });
}

PROF_OSRT_EXPORT void *mmap64(void *address, size_t length, int protection, int flags, int fd,
                              off64_t offset) noexcept {
  PROF_OSRT_REAL(mmap64);
  PROF_OSRT_REAL_OR(MAP_FAILED);
  return timed_call(OsrtFunction::mmap, PROF_OSRT_CALLER,
                    [&] { return fn(address, length, protection, flags, fd, offset); });
}

PROF_OSRT_EXPORT int munmap(void *address, size_t length) noexcept {
  PROF_OSRT_REAL(munmap);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::munmap, PROF_OSRT_CALLER, [&] { return fn(address, length); });
}

} // extern "C"
