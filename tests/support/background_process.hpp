// A program the test starts and leaves running while it works: output to
// files in its folder, stdin from a pipe the test types into. Killed with
// SIGKILL when the test leaves without waiting for it.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace prof::e2e {

class Background {
public:
  /// Runs argv[0] (a path) in `dir` with `environment`'s KEY=VALUE added;
  /// its output goes to <dir>/<name>.out and <name>.err.
  Background(const std::vector<std::string> &argv, const std::filesystem::path &dir,
             const std::vector<std::string> &environment = {}, const std::string &name = "bg");
  ~Background();
  Background(const Background &) = delete;
  Background &operator=(const Background &) = delete;

  int pid() const { return pid_; }
  void type(const std::string &line);
  /// Exit code (128 + signal when killed), -1 past the timeout.
  int wait(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  /// What it wrote so far, stdout then stderr.
  std::string output() const;

private:
  int pid_ = -1;
  int input_ = -1;
  bool waited_ = false;
  std::string out_, err_;
};

} // namespace prof::e2e
