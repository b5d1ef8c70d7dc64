// Turns one long call into events: a slice named after the function on the
// calling thread's track, and for calls past the backtrace threshold the
// call stack at the slice's begin (emit_stack, category "osrt": exporters
// pair it with the slice by track and timestamp, and keep it out of CPU
// function views). In a CPython process the stack carries the Python frames
// where the interpreter's loop shows (--python-backtrace). At a flight
// recorder's dump, the calls still open are slices too (emit_unfinished).
#ifndef PROF_PLUGINS_OSRT_CALL_RECORDER_HPP
#define PROF_PLUGINS_OSRT_CALL_RECORDER_HPP

#include "osrt_functions.hpp"
#include "osrt_settings.hpp"
#include "python_frame_names.hpp"
#include "stack_symbolizer.hpp"

#include <prof/plugin.hpp>
#include <prof/python/python_runtime.hpp>
#include <prof/spin_lock.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

namespace prof::osrt {

class CallRecorder {
public:
  /// Interns every function name and the category up front.
  CallRecorder(const Host &host, const OsrtSettings &settings);

  /// Records a call of `function` that ran [t0, t1) CallClock ticks, called
  /// from `caller`. Runs on the calling thread under its reentrancy guard.
  void record(OsrtFunction function, uint64_t t0, uint64_t t1, void *caller);
  /// The calls threads are inside now (session clock `now`), however short
  /// so far, as unfinished slices, each with its call site as stack.
  /// On any thread but one inside a call.
  void emit_unfinished(uint64_t now);
  /// After fork, in the child: the parent's other threads are gone.
  void reset_locks_after_fork() noexcept;

private:
  prof_track_id thread_track();
  prof_stack_id stack(OsrtFunction function, void *caller);

  Host host_;
  OsrtSettings settings_;
  std::array<prof_string_id, kOsrtFunctionCount> names_{};
  prof_string_id category_ = 0;
  StackSymbolizer symbolizer_;
  std::optional<python::PythonRuntime> python_; ///< set in a CPython process
  std::unique_ptr<PythonFrameNames> python_names_;
};

} // namespace prof::osrt

#endif
