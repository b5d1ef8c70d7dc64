// How prof is told to stop waiting for the application and leave it
// running (a detach, an interrupted attach): an eventfd it waits on beside
// the application.
#pragma once

namespace prof::tool {

/// Makes eventfd `fd` readable (async-signal-safe).
void signal_detach(int fd);

/// An eventfd prof waits on besides the application: readable when prof
/// should stop waiting and let the application run on.
struct DetachSignal {
  DetachSignal();
  ~DetachSignal();
  DetachSignal(const DetachSignal &) = delete;
  DetachSignal &operator=(const DetachSignal &) = delete;
  int fd;
};

} // namespace prof::tool
