// Interposers of the readiness waits: poll, ppoll, select, pselect and the
// epoll waits (and the _FORTIFY_SOURCE forms of poll and ppoll).
#include "interpose_runtime.hpp"
#include "real_function.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>

using prof::osrt::OsrtFunction;
using prof::osrt::timed_call;

extern "C" {
int __poll_chk(pollfd *fds, nfds_t count, int timeout, size_t fdslen);
int __ppoll_chk(pollfd *fds, nfds_t count, const timespec *timeout, const sigset_t *mask,
                size_t fdslen);
int epoll_pwait2(int epfd, epoll_event *events, int maxevents, const timespec *timeout,
                 const sigset_t *mask);
}

extern "C" {

PROF_OSRT_EXPORT int poll(pollfd *fds, nfds_t count, int timeout) {
  PROF_OSRT_REAL(poll);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::poll, PROF_OSRT_CALLER, [&] { return fn(fds, count, timeout); });
}

PROF_OSRT_EXPORT int __poll_chk(pollfd *fds, nfds_t count, int timeout, size_t fdslen) {
  PROF_OSRT_REAL(__poll_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::poll, PROF_OSRT_CALLER,
                    [&] { return fn(fds, count, timeout, fdslen); });
}

PROF_OSRT_EXPORT int ppoll(pollfd *fds, nfds_t count, const timespec *timeout,
                           const sigset_t *mask) {
  PROF_OSRT_REAL(ppoll);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::ppoll, PROF_OSRT_CALLER,
                    [&] { return fn(fds, count, timeout, mask); });
}

PROF_OSRT_EXPORT int __ppoll_chk(pollfd *fds, nfds_t count, const timespec *timeout,
                                 const sigset_t *mask, size_t fdslen) {
  PROF_OSRT_REAL(__ppoll_chk);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::ppoll, PROF_OSRT_CALLER,
                    [&] { return fn(fds, count, timeout, mask, fdslen); });
}

PROF_OSRT_EXPORT int select(int count, fd_set *readable, fd_set *writable, fd_set *exceptional,
                            timeval *timeout) {
  PROF_OSRT_REAL(select);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::select, PROF_OSRT_CALLER,
                    [&] { return fn(count, readable, writable, exceptional, timeout); });
}

PROF_OSRT_EXPORT int pselect(int count, fd_set *readable, fd_set *writable, fd_set *exceptional,
                             const timespec *timeout, const sigset_t *mask) {
  PROF_OSRT_REAL(pselect);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::pselect, PROF_OSRT_CALLER,
                    [&] { return fn(count, readable, writable, exceptional, timeout, mask); });
}

PROF_OSRT_EXPORT int epoll_wait(int epfd, epoll_event *events, int maxevents, int timeout) {
  PROF_OSRT_REAL(epoll_wait);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::epoll_wait, PROF_OSRT_CALLER,
                    [&] { return fn(epfd, events, maxevents, timeout); });
}

PROF_OSRT_EXPORT int epoll_pwait(int epfd, epoll_event *events, int maxevents, int timeout,
                                 const sigset_t *mask) {
  PROF_OSRT_REAL(epoll_pwait);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::epoll_pwait, PROF_OSRT_CALLER,
                    [&] { return fn(epfd, events, maxevents, timeout, mask); });
}

PROF_OSRT_EXPORT int epoll_pwait2(int epfd, epoll_event *events, int maxevents,
                                  const timespec *timeout, const sigset_t *mask) {
  PROF_OSRT_REAL(epoll_pwait2);
  PROF_OSRT_REAL_OR(-1);
  return timed_call(OsrtFunction::epoll_pwait2, PROF_OSRT_CALLER,
                    [&] { return fn(epfd, events, maxevents, timeout, mask); });
}

} // extern "C"
