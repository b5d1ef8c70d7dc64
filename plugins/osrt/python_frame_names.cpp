#include "python_frame_names.hpp"

#include <mutex>

namespace prof::osrt {

prof_string_id PythonFrameNames::frame(const python::PythonFrameRef &frame) {
  std::lock_guard guard(lock_);
  return ids_.id(frame);
}

} // namespace prof::osrt
