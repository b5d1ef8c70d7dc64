#include "sample_emitter.hpp"

#include <prof/stacks/address_name.hpp>
#include <prof/thread_track.hpp>

namespace prof::python {

prof_string_id SampleEmitter::intern(const std::string &name) {
  auto found = strings_.find(name);
  if (found == strings_.end()) found = strings_.emplace(name, host_.intern(name)).first;
  return found->second;
}

prof_track_id SampleEmitter::thread_track(int tid) {
  auto found = tracks_.find(tid);
  if (found == tracks_.end()) found = tracks_.emplace(tid, declare_thread_track(host_, tid)).first;
  return found->second;
}

void SampleEmitter::emit(int tid, const SampleRecord &record) {
  const auto native_name = [&](uintptr_t address) -> const std::string & {
    auto found = native_names_.find(address);
    if (found == native_names_.end())
      found = native_names_.emplace(address, stacks::describe_address(address)).first;
    return found->second;
  };
  const auto python_name = [&](const PythonFrameRef &frame) { return names_.frame_name(frame); };
  const std::vector<std::string> frames =
      merge_frames(runtime_, {record.native, record.native_count},
                   {record.python, record.python_count}, native_name, python_name);
  ids_.clear();
  for (const auto &frame : frames)
    ids_.push_back(intern(frame));
  const prof_stack_id stack =
      host_.api()->intern_stack(host_.context(), ids_.data(), static_cast<uint32_t>(ids_.size()));
  host_.api()->emit_sample(host_.context(), thread_track(tid), record.time, stack);
}

} // namespace prof::python
