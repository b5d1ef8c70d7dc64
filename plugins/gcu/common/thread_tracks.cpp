#include "thread_tracks.hpp"

#include <cerrno>
#include <sys/prctl.h>
#include <unistd.h>

namespace prof::gcu {

prof_track_id calling_thread_track(const Host &host) {
  thread_local int cached_pid = 0;
  thread_local prof_track_id cached_track = 0;
  const int pid = getpid();
  if (cached_pid == pid && cached_track != 0) return cached_track;
  char name[17] = {};
  if (prctl(PR_GET_NAME, name) != 0) name[0] = '\0';
  // Process and thread tracks are shared by every source that declares them.
  const prof_track_id process = host.track(PROF_TRACK_PROCESS, program_invocation_short_name, 0, pid);
  cached_track = host.track(PROF_TRACK_THREAD, name, process, pid, gettid());
  cached_pid = pid;
  return cached_track;
}

} // namespace prof::gcu
