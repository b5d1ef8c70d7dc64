// The calling thread's track, declared as every process-scope source
// declares it, so that all sources' events of one thread land on one track.
#ifndef PROF_THREAD_TRACK_HPP
#define PROF_THREAD_TRACK_HPP

#include <prof/plugin.hpp>

#include <cerrno>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <unistd.h>

namespace prof {

/// Declares the calling thread's track (pid and tid, named `name`, or the
/// thread's OS name when `name` is empty) under its process's track (named
/// after the program). Hosts share these tracks among the sources that
/// declare them. Not cached: a caller keeps the id per thread, and declares
/// again in a forked child, whose ids differ.
inline prof_track_id declare_calling_thread_track(const Host &host, std::string_view name = {}) {
  const int pid = getpid();
  std::string thread_name(name);
  if (thread_name.empty()) {
    char os_name[17] = {};
    if (prctl(PR_GET_NAME, os_name) == 0) thread_name = os_name;
  }
  const prof_track_id process =
      host.track(PROF_TRACK_PROCESS, program_invocation_short_name, 0, pid);
  return host.track(PROF_TRACK_THREAD, thread_name, process, pid, gettid());
}

} // namespace prof

#endif
