#include "stack_names.hpp"

#include "prof_code.hpp"

#include <prof/python/frame_merge.hpp>
#include <prof/stacks/address_name.hpp>

#include <span>

namespace prof::memory {

StackNames::StackNames(const Host &host, const python::PythonRuntime *python)
    : host_(host), python_(python) {
  if (python_ != nullptr) python_names_ = std::make_unique<python::FrameNameIds>(host_, *python_);
}

prof_string_id StackNames::native_name(uintptr_t address) {
  auto found = native_names_.find(address);
  if (found == native_names_.end())
    found = native_names_.emplace(address, host_.intern(stacks::describe_address(address))).first;
  return found->second;
}

void StackNames::update(const RawStackTable &table) {
  const uint32_t size = table.size();
  for (uint32_t id = static_cast<uint32_t>(named_.size()) + 1; id <= size; ++id) {
    const RawStack &raw = table.at(id);
    const std::span<const uintptr_t> native(raw.native, raw.native_count);
    std::vector<prof_string_id> frames;
    if (python_ != nullptr) {
      frames = python::merge_frames(
          *python_, native, std::span<const python::PythonFrameRef>(raw.python, raw.python_count),
          [this](uintptr_t address) { return native_name(address); },
          [this](const python::PythonFrameRef &frame) { return python_names_->id(frame); });
    } else {
      for (const uintptr_t address : native)
        frames.push_back(native_name(address));
    }
    Named named;
    if (!frames.empty()) {
      named.stack = host_.api()->intern_stack(host_.context(), frames.data(),
                                              static_cast<uint32_t>(frames.size()));
      named.leaf = frames.front();
    }
    named.prof_own = raw.native_count > 0 && prof_code().contains(raw.native[0]);
    named_.push_back(named);
  }
}

} // namespace prof::memory
