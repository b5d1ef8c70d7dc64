// Turns the handler's records into CPU samples: native frames named, and
// merged with the Python frames (prof/python/frame_merge.hpp).
#ifndef PROF_PLUGINS_PYTHON_SAMPLE_EMITTER_HPP
#define PROF_PLUGINS_PYTHON_SAMPLE_EMITTER_HPP

#include "sample_record.hpp"
#include <prof/python/code_names.hpp>
#include <prof/python/frame_merge.hpp>
#include <prof/python/python_runtime.hpp>

#include <prof/plugin.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace prof::python {

class SampleEmitter {
public:
  SampleEmitter(const Host &host, const PythonRuntime &runtime)
      : host_(host), runtime_(runtime), names_(runtime) {}
  void emit(int tid, const SampleRecord &record);

private:
  prof_string_id intern(const std::string &name);
  prof_track_id thread_track(int tid);

  Host host_;
  const PythonRuntime &runtime_;
  CodeNames names_;
  std::unordered_map<uintptr_t, std::string> native_names_;
  std::unordered_map<std::string, prof_string_id> strings_;
  std::unordered_map<int, prof_track_id> tracks_;
  std::vector<prof_string_id> ids_;
};

} // namespace prof::python

#endif
