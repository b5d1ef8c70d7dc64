#include "thread_tracks.hpp"

#include <prof/thread_track.hpp>

#include <unistd.h>

namespace prof::gcu {

prof_track_id calling_thread_track(const Host &host) {
  // An id is only good with the host that handed it out: a later capture's
  // source (another host) declares the track again.
  thread_local int cached_pid = 0;
  thread_local const void *cached_host = nullptr;
  thread_local prof_track_id cached_track = 0;
  const int pid = getpid();
  if (cached_pid == pid && cached_host == host.context() && cached_track != 0) return cached_track;
  cached_track = declare_calling_thread_track(host);
  cached_pid = pid;
  cached_host = host.context();
  return cached_track;
}

} // namespace prof::gcu
