#include "stack_names.hpp"

#include <prof/python/frame_merge.hpp>
#include <prof/stacks/address_name.hpp>

#include <dlfcn.h>

#include <span>
#include <string_view>

namespace prof::memory {

bool in_prof_library(uintptr_t address) {
  Dl_info info{};
  if (address <= 1 || dladdr(reinterpret_cast<void *>(address - 1), &info) == 0 ||
      info.dli_fname == nullptr)
    return false;
  const std::string_view file = info.dli_fname;
  const auto slash = file.rfind('/');
  return file.substr(slash == std::string_view::npos ? 0 : slash + 1).starts_with("libprof-");
}

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
    named.prof_own = raw.native_count > 0 && in_prof_library(raw.native[0]);
    named_.push_back(named);
  }
}

} // namespace prof::memory
