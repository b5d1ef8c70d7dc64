#include "python_frame_names.hpp"

#include <mutex>

namespace prof::osrt {

prof_string_id PythonFrameNames::frame(const python::PythonFrameRef &frame) {
  const Key key{frame.code, frame.qualname, frame.first_line, frame.instruction};
  std::lock_guard guard(lock_);
  auto found = ids_.find(key);
  if (found == ids_.end()) found = ids_.emplace(key, host_.intern(names_.frame_name(frame))).first;
  return found->second;
}

} // namespace prof::osrt
