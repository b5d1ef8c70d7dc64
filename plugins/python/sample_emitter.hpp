// Turns the handler's records into CPU samples: native frames named, and
// merged with the Python frames (prof/python/frame_merge.hpp) in a Python
// process.
#ifndef PROF_PLUGINS_PYTHON_SAMPLE_EMITTER_HPP
#define PROF_PLUGINS_PYTHON_SAMPLE_EMITTER_HPP

#include "sample_record.hpp"
#include <prof/python/frame_merge.hpp>
#include <prof/python/frame_name_ids.hpp>
#include <prof/python/python_runtime.hpp>

#include <prof/plugin.hpp>

#include <memory>
#include <unordered_map>

namespace prof::python {

class SampleEmitter {
public:
  /// `runtime`: the process's Python, or nullptr for native frames only; it
  /// must outlive this.
  SampleEmitter(const Host &host, const PythonRuntime *runtime);
  void emit(int tid, const SampleRecord &record);

private:
  prof_string_id native_name(uintptr_t address);
  prof_track_id thread_track(int tid);

  Host host_;
  const PythonRuntime *runtime_;
  std::unique_ptr<FrameNameIds> python_names_;
  std::unordered_map<uintptr_t, prof_string_id> native_names_;
  std::unordered_map<int, prof_track_id> tracks_;
};

} // namespace prof::python

#endif
