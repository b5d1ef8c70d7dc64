// Names of the Python frames samples carry, "function (file:line)", read
// from the code objects after the fact through reads that fail instead of
// faulting (the object may be gone by then), and cached per code object.
#ifndef PROF_PYTHON_CODE_NAMES_HPP
#define PROF_PYTHON_CODE_NAMES_HPP

#include <prof/python/frame_walk.hpp>
#include <prof/python/python_runtime.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::python {

/// Text of a compact str object (UTF-8), or nothing when unreadable.
std::optional<std::string> read_str(const InterpreterLayout &layout, uintptr_t object);

/// "file" as shown in frame names: a path into an installed package keeps
/// its part from the package on ("torch/nn/modules/module.py").
std::string shown_file(const std::string &path);

class CodeNames {
public:
  explicit CodeNames(const PythonRuntime &runtime) : runtime_(runtime) {}
  /// "function (file:line)" for `frame`; "[python frame]" when its code
  /// object cannot be read any more.
  std::string frame_name(const PythonFrameRef &frame);

private:
  struct Code {
    bool readable = false;
    std::string qualname;
    std::string file;
    std::vector<uint8_t> line_table;
  };
  struct Key {
    uintptr_t code, qualname;
    int32_t first_line;
    bool operator==(const Key &) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key &k) const {
      return std::hash<uintptr_t>()(k.code * 31 + k.qualname) ^
             static_cast<std::size_t>(k.first_line);
    }
  };
  Code read_code(const PythonFrameRef &frame) const;

  const PythonRuntime &runtime_;
  std::unordered_map<Key, Code, KeyHash> codes_;
};

} // namespace prof::python

#endif
