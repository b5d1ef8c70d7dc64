#include "tools/prof-plugin-check/workload.hpp"

#include "core/plugin_host/input_error.hpp"

#include <dlfcn.h>

namespace prof::plugin_check {

Workload::Workload(const std::filesystem::path &library) {
  // Never closed: like an application's libraries, it stays to the end.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr)
    throw core::InputError("--workload '" + library.string() +
                           "': cannot be loaded (expected a shared library): " + dlerror());
  run_ = reinterpret_cast<void (*)()>(dlsym(handle, kWorkloadSymbol));
  if (run_ == nullptr)
    throw core::InputError("--workload '" + library.string() + "': does not export " +
                           kWorkloadSymbol);
}

} // namespace prof::plugin_check
