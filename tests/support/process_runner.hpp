// Runs a program the way a user's shell would, but without a shell: fork and
// exec with an argv, stdout and stderr captured apart, stdin from /dev/null.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace prof::e2e {

struct RunResult {
  int exit_code = -1; ///< the exit status, or 128 + signal when killed
  int signal = 0;     ///< the signal that ended it, 0 when it exited
  bool timed_out = false;
  std::string out;              ///< everything written to stdout
  std::string err;              ///< everything written to stderr
  double seconds = 0;           ///< wall time
  std::string describe() const; ///< for failure messages
};

/// Runs argv[0] (a path) in `cwd` (the current folder when empty). The program
/// gets its own process group; past `timeout` the whole group is killed.
RunResult run_process(const std::vector<std::string> &argv, const std::filesystem::path &cwd = {},
                      std::chrono::milliseconds timeout = std::chrono::seconds(60));

/// Splits text into lines, without their '\n'.
std::vector<std::string> split_lines(const std::string &text);

} // namespace prof::e2e
