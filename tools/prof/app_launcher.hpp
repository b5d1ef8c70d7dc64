// Launches the profiled application held at a gate until the sources run,
// then waits for it and every descendant (prof is their subreaper).
#pragma once

#include <string>
#include <vector>

namespace prof::tool {

/// How the application ended.
struct AppExit {
  int code = 0;   ///< exit code, or 128+signal when killed
  int signal = 0; ///< signal that killed it, 0 if it exited
};

class AppLauncher {
public:
  AppLauncher() = default;
  ~AppLauncher();
  AppLauncher(const AppLauncher &) = delete;
  AppLauncher &operator=(const AppLauncher &) = delete;

  /// The path execvp would run for `name`, or "" when there is none (checked
  /// before anything is started, so a typo costs nothing).
  static std::string resolve(const std::string &name);
  /// "a b 'c d'": the command line as shown to users.
  static std::string display(const std::vector<std::string> &argv);

  /// Forks the application, held before exec until release(). `show_output`
  /// false sends its stdout and stderr to /dev/null; `environment` holds
  /// "KEY=VALUE" entries set (or replaced) in its environment. Returns false
  /// with error() set when it cannot fork.
  bool spawn(const std::vector<std::string> &argv, bool show_output,
             const std::vector<std::string> &environment = {});
  /// Lets the application exec; false with error() set when exec failed.
  bool release();
  /// Waits for the application and all its descendants; forwards SIGTERM and
  /// SIGHUP sent to prof to the application.
  AppExit wait_all();
  int pid() const { return pid_; }
  const std::string &error() const { return error_; }

private:
  int pid_ = 0;
  int gate_fd_ = -1;      ///< write end: closing it lets the child go on
  int exec_error_fd_ = -1;///< read end: carries errno when exec fails
  std::string program_;
  std::string error_;
};

} // namespace prof::tool
