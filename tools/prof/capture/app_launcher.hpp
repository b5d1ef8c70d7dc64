// Launches the profiled application held at a gate until the sources run,
// then waits for it and every descendant (prof is their subreaper).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace prof::tool {

struct HeldChildPlan;

/// How the application ended.
struct AppExit {
  int code = 0;         ///< exit code, or 128+signal when killed
  int signal = 0;       ///< signal that killed it, 0 if it exited
  bool running = false; ///< prof stopped waiting while it still ran
};

/// What wait_all() waits for.
struct WaitOptions {
  bool primary_only = false; ///< --wait primary: the launched process, not its descendants
  int wake_fd = -1;          ///< readable: stop waiting, the application runs on
};

class AppLauncher {
public:
  AppLauncher();
  ~AppLauncher();
  AppLauncher(const AppLauncher &) = delete;
  AppLauncher &operator=(const AppLauncher &) = delete;

  /// The path execvp would run for `name`, or "" when there is none (checked
  /// before anything is started, so a typo costs nothing).
  static std::string resolve(const std::string &name);
  /// "a b 'c d'": the command line as shown to users.
  static std::string display(const std::vector<std::string> &argv);

  /// Starts the application's process, held before exec until release(). `show_output`
  /// false sends its stdout and stderr to /dev/null; `environment` holds
  /// "KEY=VALUE" entries set (or replaced) in its environment, which starts
  /// from prof's unless `inherit_environment` is false; `path` is what
  /// resolve() found for argv[0] ("": looked up here). Returns false with
  /// error() set when it cannot be started.
  bool spawn(const std::vector<std::string> &argv, bool show_output,
             const std::vector<std::string> &environment = {}, bool inherit_environment = true,
             std::string path = "");
  /// Lets the application exec; false with error() set when exec failed.
  bool release() {
    open_gate();
    return exec_started();
  }
  /// Lets the application go on to exec, without waiting for it.
  void open_gate();
  /// After open_gate(): waits until the application has exec'd; false with
  /// error() set when exec failed.
  bool exec_started();
  /// Waits for the application and all its descendants (or as `options`
  /// say); forwards SIGTERM and SIGHUP sent to prof to the application.
  AppExit wait_all(WaitOptions options = {});
  int pid() const { return pid_; }
  const std::string &error() const { return error_; }

private:
  int pid_ = 0;
  int gate_fd_ = -1;       ///< write end: closing it lets the child go on
  int exec_error_fd_ = -1; ///< read end: carries errno when exec fails
  std::string program_;
  std::string error_;
  static constexpr size_t kChildStackBytes = 64 * 1024;
  std::unique_ptr<HeldChildPlan> child_plan_; ///< read by the child until it execs
  void *child_stack_ = nullptr;
  bool child_may_run_on_stack_ = false; ///< exec failed: the child exits on that stack
};

} // namespace prof::tool
