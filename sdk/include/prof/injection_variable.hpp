// Injection hooks (NVTX_INJECTION64_PATH, CUDA_INJECTION64_PATH): a library
// loads the file such a variable names and calls its entry. A process-scope
// plugin is already preloaded into the application, so pointing the variable
// at the plugin's own file makes that load return the loaded copy.
#ifndef PROF_INJECTION_VARIABLE_HPP
#define PROF_INJECTION_VARIABLE_HPP

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace prof {

/// Sets `variable` to the file holding `symbol` (the plugin's injection
/// entry) unless the user set it. Returns "" or, when the library will load
/// another file, a one-line warning that says `what` is then not recorded.
inline std::string point_injection_at(const char *variable, const void *symbol,
                                      const std::string &what) {
  Dl_info info{};
  if (dladdr(symbol, &info) == 0 || info.dli_fname == nullptr)
    return "cannot find the plugin's own file; " + what + " is not recorded";
  const std::string self = info.dli_fname;
  if (const char *set = std::getenv(variable); set && *set) {
    if (self == set) return "";
    return std::string(variable) + " names " + set + ", which is loaded instead of prof; " + what +
           " is not recorded";
  }
  setenv(variable, self.c_str(), 0);
  return "";
}

} // namespace prof

#endif
