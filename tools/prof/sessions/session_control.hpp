// Sessions as other prof processes see them: a running capture answers on
// its control socket, and `prof --session-list` / `prof sessions list` asks
// every socket in the user's session folder.
#pragma once

#include "core/capture/capture_controller.hpp"
#include "core/control/control_server.hpp"
#include "core/plugin_host/console.hpp"
#include "tools/prof/cli/command_line.hpp"

#include <atomic>

#include <memory>
#include <string>
#include <vector>

namespace prof::tool {

/// What a capture tells about itself.
struct SessionFacts {
  std::string name;
  std::string id;       ///< unique per session: "pid-random"
  int pid = 0;          ///< the profiled application's
  std::string command;  ///< the application's command line
  std::string output;   ///< the report being written, "-" when none
  std::string started;  ///< local time, ISO 8601
  std::string log = {}; ///< where a background session's console goes; "" in a terminal
};

/// A capture's control socket: answers `status` itself and hands start,
/// stop, suspend, resume, cancel and shutdown to the capture's controller.
class SessionControl {
public:
  /// Opens <session folder>/<name>.sock; throws std::runtime_error with the
  /// reason (a live session already uses the name, an unsafe folder).
  explicit SessionControl(SessionFacts facts);
  /// Stops answering before `controller` goes away.
  ~SessionControl();

  /// Commands go to `controller` from now on; destroy this before it.
  void set_controller(core::CaptureController *controller) { controller_.store(controller); }

private:
  std::string answer(const control::Request &request) const;

  SessionFacts facts_;
  std::atomic<core::CaptureController *> controller_{nullptr};
  std::unique_ptr<control::ControlServer> server_;
};

/// Sends a control command to a session: `session` names it, or "" for the
/// only one there is. Prints the answer; returns the exit code (2 when no
/// such session, or several and none named).
int run_session_command(control::Command command, const std::string &session,
                        const std::string &argument);

/// Prints the user's sessions (removing sockets of sessions that are gone);
/// returns the exit code.
int run_session_list(core::Console &console);

/// A process started with PROF_MODE=dynamic, as its agent answered.
struct WaitingProcess {
  int pid = 0;
  std::string command;
  bool attached = false;   ///< a prof is attached to it now
  std::string trigger_dir; ///< the folder it watches for capture requests, "" when none
};

/// The user's processes whose agents answer on the session folder, by pid.
std::vector<WaitingProcess> waiting_processes();

/// prof status (asys): the state of each running session, or of the one
/// named by `session` (its name or id; exit 2 when there is none such).
int run_status(const std::string &session);

/// The session's control socket, or null (said on the console) when it
/// cannot be listed; throws cli::UsageError when --session-new named it.
std::unique_ptr<SessionControl> open_session_control(const cli::CommandLine &command,
                                                     SessionFacts facts, core::Console &console);

} // namespace prof::tool
