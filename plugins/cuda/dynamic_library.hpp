// Libraries the cuda source opens at run time (CUPTI, NVML): opening one and
// resolving its entry points, with one-line reasons when that fails.
#ifndef PROF_PLUGINS_CUDA_DYNAMIC_LIBRARY_HPP
#define PROF_PLUGINS_CUDA_DYNAMIC_LIBRARY_HPP

#include <dlfcn.h>

#include <string>

namespace prof::cuda {

/// Opens `path` (a file or a library name); nullptr with `error` set
/// ("cannot load NVML (libnvidia-ml.so.1): ...") when it cannot.
inline void *open_library(const std::string &path, const char *owner, std::string &error) {
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char *reason = dlerror();
    error = std::string("cannot load ") + owner + " (" + path +
            "): " + (reason ? reason : "unknown error");
  }
  return library;
}

/// Resolves `name` into `function`; the first one missing is named in
/// `error` ("NVML lacks nvmlInit_v2").
template <class F>
bool resolve(void *library, const char *owner, const char *name, F &function, std::string &error) {
  function = reinterpret_cast<F>(dlsym(library, name));
  if (function == nullptr && error.empty()) error = std::string(owner) + " lacks " + name;
  return function != nullptr;
}

} // namespace prof::cuda

#endif
