// What the application's stderr says when it dies of a fault (SIGSEGV,
// SIGBUS, SIGILL, SIGFPE) while profiled: where, and whether the faulting
// code is prof's (the agent or a plugin) or the application's. The process
// then dies of the same signal, as it would have without prof.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace prof::agent {

/// prof's libraries in this process: each plugin's name and file.
using ProfLibraries = std::vector<std::pair<std::string, std::string>>;

/// Watches for faults where the application has left the default action
/// (a handler it installs later replaces this one). Safe to call again
/// (the libraries are replaced); does nothing when PROF_CRASH_WITNESS=0.
void install_crash_witness(const ProfLibraries &libraries);

} // namespace prof::agent
