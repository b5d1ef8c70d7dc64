#include <prof/python/frame_name_ids.hpp>

namespace prof::python {

prof_string_id FrameNameIds::id(const PythonFrameRef &frame) {
  const Key key{frame.code, frame.qualname, frame.first_line, frame.instruction};
  auto found = ids_.find(key);
  if (found == ids_.end()) found = ids_.emplace(key, host_.intern(names_.frame_name(frame))).first;
  return found->second;
}

} // namespace prof::python
