// PROF_TRIGGER_DIR=DIR beside PROF_MODE=dynamic: the agent looks in DIR once
// a second for capture requests (core/control/trigger_request.hpp) that
// appeared after it started. For a new id, the first agent of this host to
// claim it (a file in the session folder) starts `prof attach --all
// --trigger-dir DIR` with the request's settings, out of the application's
// session; the others leave it to that prof. Files that are not a request
// of this user are ignored, counted and logged in the session folder
// (trigger-PID.log), never acted on.
#pragma once

#include <string>

namespace prof::agent {

/// Starts watching `dir`; false with `error` when it is not a folder.
bool start_trigger_watch(const char *dir, std::string *error);
/// Stops watching (at exit); the thread ends by itself within a second.
void stop_trigger_watch();
/// In a child after fork: the watch is the parent's.
void forget_trigger_watch();
/// "\ttrigger_dir=DIR\ttriggers_ignored=N" for the agent's status, "" when
/// not watching.
std::string trigger_watch_fields();

} // namespace prof::agent
