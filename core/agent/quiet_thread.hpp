// The agent's own threads inside the application: detached, and with every
// signal blocked, so that the application's signals go to its own threads.
#pragma once

#include <functional>
#include <string>

namespace prof::agent {

/// Starts `run` on a detached thread named `name`; false with `error` set
/// when no thread could be made.
bool start_quiet_thread(const char *name, std::function<void()> run, std::string *error);

} // namespace prof::agent
