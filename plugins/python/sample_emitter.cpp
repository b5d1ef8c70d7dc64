#include "sample_emitter.hpp"

#include <prof/stacks/address_name.hpp>
#include <prof/thread_track.hpp>

namespace prof::python {

SampleEmitter::SampleEmitter(const Host &host, const PythonRuntime *runtime)
    : host_(host), runtime_(runtime) {
  if (runtime_ != nullptr) python_names_ = std::make_unique<FrameNameIds>(host_, *runtime_);
}

prof_string_id SampleEmitter::native_name(uintptr_t address) {
  auto found = native_names_.find(address);
  if (found == native_names_.end())
    found = native_names_.emplace(address, host_.intern(stacks::describe_address(address))).first;
  return found->second;
}

prof_track_id SampleEmitter::thread_track(int tid) {
  auto found = tracks_.find(tid);
  if (found == tracks_.end()) found = tracks_.emplace(tid, declare_thread_track(host_, tid)).first;
  return found->second;
}

void SampleEmitter::emit(int tid, const SampleRecord &record) {
  std::vector<prof_string_id> frames;
  if (runtime_ != nullptr) {
    frames = merge_frames(
        *runtime_, {record.native, record.native_count}, {record.python, record.python_count},
        [this](uintptr_t address) { return native_name(address); },
        [this](const PythonFrameRef &frame) { return python_names_->id(frame); });
  } else {
    frames.reserve(record.native_count);
    for (uint16_t i = 0; i < record.native_count; ++i)
      frames.push_back(native_name(record.native[i]));
  }
  const prof_stack_id stack = host_.api()->intern_stack(host_.context(), frames.data(),
                                                        static_cast<uint32_t>(frames.size()));
  host_.api()->emit_sample(host_.context(), thread_track(tid), record.time, stack);
}

} // namespace prof::python
