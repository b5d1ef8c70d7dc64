// A time limit on one call into a plugin that must return (configure): past
// it, prof says which plugin hung in what and exits, since a thread stuck in
// a plugin can be neither stopped nor unloaded. The application, if any, is
// left running; nothing more is written.
#pragma once

#include <chrono>
#include <string>
#include <time.h>

namespace prof::core {

/// Watches through a POSIX timer whose signal ends prof: no thread to start
/// and join around every configure (on the start-up path of every capture).
class CallTimeLimit {
public:
  /// Watches from now on; `what` names the call ("plugin 'x': configure").
  CallTimeLimit(const std::string &what, std::chrono::milliseconds limit);
  /// The call returned in time.
  ~CallTimeLimit();
  CallTimeLimit(const CallTimeLimit &) = delete;
  CallTimeLimit &operator=(const CallTimeLimit &) = delete;

private:
  int slot_ = -1; ///< -1: no timer could be had; the call runs unwatched
  timer_t timer_{};
};

} // namespace prof::core
