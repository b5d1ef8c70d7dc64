// How NVTX finds this plugin: NVTX v3 loads the library NVTX_INJECTION64_PATH
// names at its first call and calls its InitializeInjectionNvtx2. The plugin
// is preloaded into the application by prof's agent, so pointing that
// variable at the plugin's own file makes NVTX's dlopen return the loaded
// copy, whose handlers then feed the active recorder.
#ifndef PROF_PLUGINS_NVTX_NVTX_INJECTION_HPP
#define PROF_PLUGINS_NVTX_NVTX_INJECTION_HPP

#include <string>

namespace prof::nvtx {

/// Sets NVTX_INJECTION64_PATH to the file holding this code unless the user
/// set it. Returns "" or, when NVTX will load another library, a one-line warning.
std::string point_nvtx_at_this_library();

} // namespace prof::nvtx

#endif
