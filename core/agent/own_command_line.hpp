// The command line of the process the agent runs in, read from
// /proc/self/cmdline with plain reads: an std::ifstream would set up the
// C++ locale of the agent's private runtime in every process at start
// (about 25 page faults).
#pragma once

#include <string>

namespace prof::agent {

/// This process's arguments joined by spaces (tabs and newlines in them
/// become spaces too); "" when /proc is not there.
std::string own_command_line();

} // namespace prof::agent
