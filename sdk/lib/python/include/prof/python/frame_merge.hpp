// Python frames joined to a native call stack where the interpreter's
// evaluation loop shows, as py-spy --native shows them.
#ifndef PROF_PYTHON_FRAME_MERGE_HPP
#define PROF_PYTHON_FRAME_MERGE_HPP

#include <prof/python/frame_walk.hpp>
#include <prof/python/python_runtime.hpp>

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace prof::python {

/// One call stack, leaf first, named: each native frame of the evaluation
/// function gives way to the Python frames that call of it runs (none for
/// a call between frames, see PythonFrameRef); Python
/// frames left over (a native stack cut short) come last. `native` are
/// return addresses, `python` the walk's frames; the namers return what the
/// stack holds (strings, interned ids).
template <typename NativeName, typename PythonName>
auto merge_frames(const PythonRuntime &runtime, std::span<const uintptr_t> native,
                  std::span<const PythonFrameRef> python, NativeName &&native_name,
                  PythonName &&python_name) {
  std::vector<std::decay_t<decltype(native_name(uintptr_t{}))>> frames;
  std::size_t next = 0;
  const auto push_group = [&] {
    while (next < python.size()) {
      const PythonFrameRef &frame = python[next++];
      if (frame.code != 0) frames.push_back(python_name(frame));
      if (frame.last_of_group) break;
    }
  };
  for (const uintptr_t address : native) {
    if (runtime.is_evaluation(address) && next < python.size())
      push_group();
    else
      frames.push_back(native_name(address));
  }
  while (next < python.size()) // the native stack was cut short
    push_group();
  return frames;
}

} // namespace prof::python

#endif
