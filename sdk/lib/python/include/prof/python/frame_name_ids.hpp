// Interned names of Python frames, "function (file:line)", once per code
// object and instruction: what a plugin puts in a call stack. Not
// thread-safe: a caller that names frames from several threads locks.
#ifndef PROF_PYTHON_FRAME_NAME_IDS_HPP
#define PROF_PYTHON_FRAME_NAME_IDS_HPP

#include <prof/plugin.hpp>
#include <prof/python/code_names.hpp>

#include <unordered_map>

namespace prof::python {

class FrameNameIds {
public:
  FrameNameIds(const Host &host, const PythonRuntime &runtime) : host_(host), names_(runtime) {}
  /// String id of `frame`'s name (a code object read once, then cached).
  prof_string_id id(const PythonFrameRef &frame);

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
  CodeNames names_;
  std::unordered_map<Key, prof_string_id, KeyHash> ids_;
};

} // namespace prof::python

#endif
