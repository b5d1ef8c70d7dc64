// Names for the hooks' raw stacks (raw_stack_table.hpp): native frames named
// from the dynamic symbol tables, merged with the Python frames where the
// interpreter's evaluation loop shows (prof/python/frame_merge.hpp), and
// interned as call stacks. The memory source's worker names each raw stack
// within a tick of its sample, while its Python code objects still live.
#ifndef PROF_PLUGINS_MEMORY_STACK_NAMES_HPP
#define PROF_PLUGINS_MEMORY_STACK_NAMES_HPP

#include "raw_stack_table.hpp"

#include <prof/plugin.hpp>
#include <prof/python/frame_name_ids.hpp>
#include <prof/python/python_runtime.hpp>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace prof::memory {

class StackNames {
public:
  /// `python`: the process's interpreter, or nullptr; it must outlive this.
  StackNames(const Host &host, const python::PythonRuntime *python);

  struct Named {
    prof_stack_id stack = 0; ///< 0: not named (yet), or no frames
    prof_string_id leaf = 0; ///< its innermost frame's name
    bool prof_own = false;   ///< allocated by prof's own code
  };
  /// Names the stacks `table` took since the last call.
  void update(const RawStackTable &table);
  /// Raw stack `id`'s names; a default Named for one not named.
  Named named(uint32_t id) const {
    return id >= 1 && id <= named_.size() ? named_[id - 1] : Named{};
  }

private:
  prof_string_id native_name(uintptr_t address);

  Host host_;
  const python::PythonRuntime *python_;
  std::unique_ptr<python::FrameNameIds> python_names_;
  std::unordered_map<uintptr_t, prof_string_id> native_names_;
  std::vector<Named> named_;
};

} // namespace prof::memory

#endif
