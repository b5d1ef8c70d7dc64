// PROF_MODE=dynamic (msprof's attach mode): the agent listens on
// <session folder>/dynamic-PID.sock for prof to attach (`start REGION PID`,
// the region's descriptor passed beside: a container reaches it so; PID is
// how prof knows the process, its host pid in a container),
// detach (`stop`) or ask who this is (`status`). Only the user's own prof
// can connect (the control server's peer check).
#pragma once

#include <string>

namespace prof::agent {

/// Starts listening; false with `error` set when the socket cannot be made.
bool start_dynamic_listener(std::string *error);
/// Stops listening and removes the socket (at exit).
void stop_dynamic_listener();

/// In a child after fork: the listener (and its socket) is the parent's.
void forget_dynamic_listener();

/// The socket file name of process `pid` ("dynamic-PID.sock").
std::string dynamic_socket_name(int pid);

} // namespace prof::agent
