// Sessions as other prof processes see them: a running capture answers on
// its control socket, and `prof --session-list` / `prof sessions list` asks
// every socket in the user's session folder.
#pragma once

#include "core/console.hpp"
#include "core/control/control_server.hpp"

#include <memory>
#include <string>

namespace prof::tool {

/// What a capture tells about itself.
struct SessionFacts {
  std::string name;
  std::string id;      ///< unique per session: "pid-random"
  int pid = 0;         ///< the profiled application's
  std::string command; ///< the application's command line
  std::string output;  ///< the report being written, "-" when none
  std::string started; ///< local time, ISO 8601
};

/// A capture's control socket: answers `status`; the other commands say
/// they are not available yet.
class SessionControl {
public:
  /// Opens <session folder>/<name>.sock; throws std::runtime_error with the
  /// reason (a live session already uses the name, an unsafe folder).
  explicit SessionControl(SessionFacts facts);

private:
  std::string answer(const control::Request &request) const;

  SessionFacts facts_;
  std::unique_ptr<control::ControlServer> server_;
};

/// Prints the user's sessions (removing sockets of sessions that are gone);
/// returns the exit code.
int run_session_list(core::Console &console);

} // namespace prof::tool
