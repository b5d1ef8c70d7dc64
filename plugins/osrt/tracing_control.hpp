// How an instance switches the interposers on and off. One recorder at a time
// per process; stop waits until no thread is still inside it, so the instance
// can be destroyed right after.
#ifndef PROF_PLUGINS_OSRT_TRACING_CONTROL_HPP
#define PROF_PLUGINS_OSRT_TRACING_CONTROL_HPP

#include <cstdint>

namespace prof::osrt {

class CallRecorder;

/// Makes `recorder` the one that records; false when another one already is.
bool install_recorder(CallRecorder *recorder, uint64_t threshold_ticks);
/// Whether some recorder is installed in this process.
bool recorder_installed();
/// Stops recording into `recorder` and waits for calls being recorded into it.
void remove_recorder(CallRecorder *recorder);
/// Pauses or resumes timing calls (suspend/resume); the recorder stays.
void set_tracing(bool on);

/// RAII reentrancy guard: calls made by this thread while it lives pass
/// straight through (used by start(), the recorder, symbol lookups).
class PassThroughScope {
public:
  PassThroughScope() noexcept;
  ~PassThroughScope();
  PassThroughScope(const PassThroughScope &) = delete;
  PassThroughScope &operator=(const PassThroughScope &) = delete;
};

} // namespace prof::osrt

#endif
