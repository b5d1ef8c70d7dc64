// A time limit on one call into a plugin that must return (configure): past
// it, prof says which plugin hung in what and exits, since a thread stuck in
// a plugin can be neither stopped nor unloaded. The application, if any, is
// left running; nothing more is written.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace prof::core {

class CallTimeLimit {
public:
  /// Watches from now on; `what` names the call ("plugin 'x': configure").
  CallTimeLimit(std::string what, std::chrono::milliseconds limit);
  /// The call returned in time.
  ~CallTimeLimit();
  CallTimeLimit(const CallTimeLimit &) = delete;
  CallTimeLimit &operator=(const CallTimeLimit &) = delete;

private:
  std::mutex mutex_;
  std::condition_variable returned_;
  bool done_ = false;
  std::thread watcher_;
};

} // namespace prof::core
