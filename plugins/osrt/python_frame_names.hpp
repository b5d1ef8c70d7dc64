// Names of the Python frames in osrt's call stacks (prof::python_frames),
// shared by every thread of the process behind osrt's own lock.
#ifndef PROF_PLUGINS_OSRT_PYTHON_FRAME_NAMES_HPP
#define PROF_PLUGINS_OSRT_PYTHON_FRAME_NAMES_HPP

#include <prof/python/frame_name_ids.hpp>
#include <prof/spin_lock.hpp>

namespace prof::osrt {

class PythonFrameNames {
public:
  PythonFrameNames(const Host &host, const python::PythonRuntime &runtime) : ids_(host, runtime) {}
  /// String id of "function (file:line)" for `frame` of the calling thread.
  prof_string_id frame(const python::PythonFrameRef &frame);
  void reset_lock() noexcept { lock_.reset(); }

private:
  SpinLock lock_;
  python::FrameNameIds ids_;
};

} // namespace prof::osrt

#endif
