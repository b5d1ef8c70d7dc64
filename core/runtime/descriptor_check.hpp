// Checks a plugin descriptor before the host trusts it.
#pragma once

#include <prof/plugin.h>

#include <cstddef>

#include <string>

namespace prof::core {

/// Size of the descriptor of ABI 1.0, the smallest a host accepts.
constexpr uint32_t kMinimumDescriptorSize = offsetof(prof_plugin_descriptor, vendor);

/// Empty when `d` is acceptable, else the one-line reason it is refused:
/// wrong major ABI, newer minor, too small, empty fields, missing vtable,
/// malformed option table.
std::string check_descriptor(const prof_plugin_descriptor *d);

/// The descriptor's importer functions (ABI 1.11), nullptr when it has none
/// or was built before them.
const prof_importer_vtable *descriptor_importer(const prof_plugin_descriptor *d);

/// The source's emit_unfinished (ABI 1.9), or nullptr when it has none or
/// was built before it.
inline prof_status (*unfinished_emitter(const prof_source_vtable &vtable))(void *, uint64_t) {
  if (vtable.struct_size < offsetof(prof_source_vtable, emit_unfinished) + sizeof(void *))
    return nullptr;
  return vtable.emit_unfinished;
}

/// Empty when the option table entry is well formed, else why not.
std::string check_option_desc(const prof_option_desc &option);

} // namespace prof::core
