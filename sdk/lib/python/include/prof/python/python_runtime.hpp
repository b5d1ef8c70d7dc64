// The CPython interpreter running in this process, found through the
// symbols it exports (the python3 executable or libpython): its version,
// its layout, the function that tells a thread its own state, and the
// address range of the frame-evaluation function that native stacks show.
#ifndef PROF_PYTHON_PYTHON_RUNTIME_HPP
#define PROF_PYTHON_PYTHON_RUNTIME_HPP

#include <prof/python/interpreter_layout.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace prof::python {

struct PythonRuntime {
  int minor = 0;
  const InterpreterLayout *layout = nullptr;
  void *(*this_thread_state)() = nullptr; ///< PyGILState_GetThisThreadState
  uintptr_t code_type = 0;                ///< &PyCode_Type
  uintptr_t eval_begin = 0;               ///< _PyEval_EvalFrameDefault's code
  uintptr_t eval_end = 0;
  /// Whether native return address `address` lies in the evaluation function.
  bool is_evaluation(uintptr_t address) const {
    return address - 1 >= eval_begin && address - 1 < eval_end;
  }
};

struct RuntimeLookup {
  std::optional<PythonRuntime> runtime;
  std::string problem; ///< why not, when a Python was found that prof cannot read
};

/// Looks for CPython in the process; no runtime and no problem when the
/// process runs no Python.
RuntimeLookup find_python_runtime();

} // namespace prof::python

#endif
