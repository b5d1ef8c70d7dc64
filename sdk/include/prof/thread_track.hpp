// The calling thread's track, declared as every process-scope source
// declares it, so that all sources' events of one thread land on one track.
#ifndef PROF_THREAD_TRACK_HPP
#define PROF_THREAD_TRACK_HPP

#include <prof/launcher_rank.hpp>
#include <prof/plugin.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <unistd.h>

namespace prof {

/// The name of the calling process's track: its program's, and under a
/// launcher its rank ("train (rank 3)").
inline std::string process_track_name() {
  std::string name = program_invocation_short_name;
  if (const char *variable = launcher_rank_variable()) name += rank_suffix(std::getenv(variable));
  return name;
}

/// Declares the calling process's track (named by process_track_name()),
/// under which every source puts its threads. Declared again by the program
/// a process becomes at exec, the track takes the new program's name.
inline prof_track_id declare_process_track(const Host &host) {
  return host.track(PROF_TRACK_PROCESS, process_track_name(), 0, getpid());
}

/// Declares the track of thread `tid` of the calling process (named `name`,
/// or the thread's OS name when `name` is empty) under its process's track
/// (named after the program). Hosts share these tracks among the sources
/// that declare them. Not cached: a caller keeps the id per thread, and
/// declares again in a forked child, whose ids differ.
inline prof_track_id declare_thread_track(const Host &host, int tid, std::string_view name = {}) {
  const int pid = getpid();
  std::string thread_name(name);
  if (thread_name.empty()) {
    char os_name[17] = {};
    if (tid == gettid()) {
      if (prctl(PR_GET_NAME, os_name) == 0) thread_name = os_name;
    } else {
      const std::string comm = "/proc/self/task/" + std::to_string(tid) + "/comm";
      if (FILE *file = std::fopen(comm.c_str(), "re")) {
        if (std::fgets(os_name, sizeof os_name, file)) thread_name = os_name;
        std::fclose(file);
      }
      if (!thread_name.empty() && thread_name.back() == '\n') thread_name.pop_back();
    }
  }
  return host.track(PROF_TRACK_THREAD, thread_name, declare_process_track(host), pid, tid);
}

/// The calling thread's track, as declare_thread_track() declares it.
inline prof_track_id declare_calling_thread_track(const Host &host, std::string_view name = {}) {
  return declare_thread_track(host, gettid(), name);
}

} // namespace prof

#endif
