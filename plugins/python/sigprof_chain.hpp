// SIGPROF shared with the application. Once the sampler takes the signal,
// the plugin's sigaction() and signal() (preloaded, so the application's
// calls reach them) record what the application asks for SIGPROF instead of
// installing it, and the sampler's handler passes every SIGPROF that is not
// its own to that action: the application's profiler timers keep working,
// and its handlers never see prof's samples (nor does a SIG_DFL it sets
// end it on one).
#ifndef PROF_PLUGINS_PYTHON_SIGPROF_CHAIN_HPP
#define PROF_PLUGINS_PYTHON_SIGPROF_CHAIN_HPP

#include <csignal>

namespace prof::python {

/// The C library's sigaction(), past this plugin's.
int real_sigaction(int signal, const struct sigaction *action, struct sigaction *old) noexcept;
/// From now on the application's SIGPROF action is `current` (what was
/// installed) and changes to it are recorded. Call before installing the
/// sampler's handler.
void take_sigprof(const struct sigaction &current) noexcept;
/// Runs the application's action for a SIGPROF that is not the sampler's.
void forward_sigprof(int signal, siginfo_t *info, void *context) noexcept;

} // namespace prof::python

#endif
