// The interactive mode of `prof --dynamic on` (msprof's): a `(prof)` prompt
// on the terminal reading start [NAME], stop, status, quit and help while
// the application runs. quit (or end of input, or no start within the
// timeout) stops collecting and lets prof go; the application runs on.
#pragma once

#include "core/capture/capture_controller.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace prof::tool {

class Prompt {
public:
  /// Reads standard input on its own thread; `detach_fd` is written when
  /// the user is done.
  Prompt(core::CaptureController &controller, std::chrono::seconds start_timeout, int detach_fd);
  /// Stops reading (the application ended).
  ~Prompt();

private:
  void run();
  /// Acts on one line; false when the prompt is done.
  bool handle(const std::string &line);
  void detach();

  core::CaptureController &controller_;
  std::chrono::seconds start_timeout_;
  int detach_fd_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

} // namespace prof::tool
