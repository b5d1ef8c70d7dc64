// Interposers of the socket calls: accept, connect, and the receives and
// sends (with the _FORTIFY_SOURCE forms of recv and recvfrom).
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <sys/socket.h>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

extern "C" {
ssize_t __recv_chk(int fd, void *buf, size_t length, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t length, size_t buflen, int flags, sockaddr *from,
                       socklen_t *fromlen);
}

extern "C" {

PROF_OSRT_EXPORT int accept(int fd, sockaddr *address, socklen_t *length) {
  PROF_OSRT_REAL(accept);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::accept, PROF_OSRT_CALLER,
                    [&] { return fn(fd, address, length); });
}

PROF_OSRT_EXPORT int accept4(int fd, sockaddr *address, socklen_t *length, int flags) {
  PROF_OSRT_REAL(accept4);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::accept4, PROF_OSRT_CALLER,
                    [&] { return fn(fd, address, length, flags); });
}

PROF_OSRT_EXPORT int connect(int fd, const sockaddr *address, socklen_t length) {
  PROF_OSRT_REAL(connect);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::connect, PROF_OSRT_CALLER,
                    [&] { return fn(fd, address, length); });
}

PROF_OSRT_EXPORT ssize_t recv(int fd, void *buf, size_t length, int flags) {
  PROF_OSRT_REAL(recv);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::recv, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, flags); });
}

PROF_OSRT_EXPORT ssize_t __recv_chk(int fd, void *buf, size_t length, size_t buflen, int flags) {
  PROF_OSRT_REAL(__recv_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::recv, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, buflen, flags); });
}

PROF_OSRT_EXPORT ssize_t recvfrom(int fd, void *buf, size_t length, int flags, sockaddr *from,
                                  socklen_t *fromlen) {
  PROF_OSRT_REAL(recvfrom);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::recvfrom, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, flags, from, fromlen); });
}

PROF_OSRT_EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t length, size_t buflen, int flags,
                                        sockaddr *from, socklen_t *fromlen) {
  PROF_OSRT_REAL(__recvfrom_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::recvfrom, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, buflen, flags, from, fromlen); });
}

PROF_OSRT_EXPORT ssize_t recvmsg(int fd, msghdr *message, int flags) {
  PROF_OSRT_REAL(recvmsg);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::recvmsg, PROF_OSRT_CALLER,
                    [&] { return fn(fd, message, flags); });
}

PROF_OSRT_EXPORT ssize_t send(int fd, const void *buf, size_t length, int flags) {
  PROF_OSRT_REAL(send);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::send, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, flags); });
}

PROF_OSRT_EXPORT ssize_t sendto(int fd, const void *buf, size_t length, int flags,
                                const sockaddr *to, socklen_t tolen) {
  PROF_OSRT_REAL(sendto);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::sendto, PROF_OSRT_CALLER,
                    [&] { return fn(fd, buf, length, flags, to, tolen); });
}

PROF_OSRT_EXPORT ssize_t sendmsg(int fd, const msghdr *message, int flags) {
  PROF_OSRT_REAL(sendmsg);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::sendmsg, PROF_OSRT_CALLER,
                    [&] { return fn(fd, message, flags); });
}

} // extern "C"
