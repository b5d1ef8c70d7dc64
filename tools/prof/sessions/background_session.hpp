// `prof start --all` without a bound: the capture goes on in a process of
// its own, out of the terminal's session, and `prof stop` ends it. The
// command returns once the capture has started (exit 0) or failed (its exit
// code, its error printed by the capture itself).
#pragma once

#include <filesystem>
#include <optional>

namespace prof::tool {

class BackgroundSession {
public:
  /// Forks. In the caller's process, waits until the capture says it is
  /// ready or ends, and returns the exit code to leave with; in the
  /// capture's process, returns nullopt and the capture goes on. Call
  /// before prof starts any thread. Throws std::runtime_error when it
  /// cannot fork.
  std::optional<int> fork_capture();
  /// In the capture's process, once it collects: tells the waiting command
  /// to return 0, and sends the console (stdout, stderr) to `log` from now on.
  void ready(const std::filesystem::path &log);

private:
  int ready_fd_ = -1;
};

} // namespace prof::tool
