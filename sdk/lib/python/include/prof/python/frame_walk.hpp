// The calling thread's Python frames, read from its interpreter state by
// plain loads: safe in a signal handler that interrupted the thread, since
// only the thread itself changes its frames.
#ifndef PROF_PYTHON_FRAME_WALK_HPP
#define PROF_PYTHON_FRAME_WALK_HPP

#include <prof/python/python_runtime.hpp>

#include <cstdint>

namespace prof::python {

/// A Python frame: its code object (with what identifies it should the
/// object be freed and its address reused) and the instruction it is at.
/// With `code` 0 and `last_of_group`, an evaluation-loop call that runs no
/// frame at the moment (entering one, or clearing the one it ran).
struct PythonFrameRef {
  uintptr_t code;
  uintptr_t qualname;  ///< the code's co_qualname object
  int32_t first_line;  ///< co_firstlineno
  int32_t instruction; ///< code units from the code's start; -1 before the first
  bool last_of_group;  ///< the outermost frame one evaluation-loop call runs
};

/// Fills `out` with the calling thread's Python frames, innermost first;
/// returns their number (0 for a thread without Python state). Sets
/// `*truncated` when more frames were there than `capacity`.
int walk_python_frames(const PythonRuntime &runtime, PythonFrameRef *out, int capacity,
                       bool *truncated) noexcept;

} // namespace prof::python

#endif
