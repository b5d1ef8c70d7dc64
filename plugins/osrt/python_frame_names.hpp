// Names of the Python frames in osrt's call stacks, interned once per code
// object and line, for every thread of the process (prof::python_frames).
#ifndef PROF_PLUGINS_OSRT_PYTHON_FRAME_NAMES_HPP
#define PROF_PLUGINS_OSRT_PYTHON_FRAME_NAMES_HPP

#include "spin_lock.hpp"

#include <prof/plugin.hpp>
#include <prof/python/code_names.hpp>
#include <prof/python/python_runtime.hpp>

#include <unordered_map>

namespace prof::osrt {

class PythonFrameNames {
public:
  PythonFrameNames(const Host &host, const python::PythonRuntime &runtime)
      : host_(host), names_(runtime) {}
  /// String id of "function (file:line)" for `frame` of the calling thread.
  prof_string_id frame(const python::PythonFrameRef &frame);
  void reset_lock() noexcept { lock_.reset(); }

private:
  struct Key {
    uintptr_t code, qualname;
    int32_t first_line, instruction;
    bool operator==(const Key &) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key &k) const {
      return std::hash<uintptr_t>()(k.code ^ k.qualname * 31) ^
             std::hash<int64_t>()(int64_t{k.first_line} << 32 | uint32_t(k.instruction));
    }
  };
  Host host_;
  SpinLock lock_;
  python::CodeNames names_;
  std::unordered_map<Key, prof_string_id, KeyHash> ids_;
};

} // namespace prof::osrt

#endif
