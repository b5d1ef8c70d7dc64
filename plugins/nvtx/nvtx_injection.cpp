#include "nvtx_injection.hpp"

#include "nvtx_handlers.hpp"

#include <dlfcn.h>

#include <cstdlib>

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  return prof::nvtx::install_handlers(get_export_table);
}

namespace prof::nvtx {

std::string point_nvtx_at_this_library() {
  constexpr const char *kVariable = "NVTX_INJECTION64_PATH";
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&InitializeInjectionNvtx2), &info) == 0 ||
      info.dli_fname == nullptr)
    return "nvtx: cannot find the plugin's own file; NVTX annotations are not recorded";
  const std::string self = info.dli_fname;
  if (const char *set = std::getenv(kVariable); set && *set) {
    if (self == set) return "";
    return std::string("nvtx: ") + kVariable + " names " + set +
           ", which NVTX loads instead of prof; NVTX annotations are not recorded";
  }
  setenv(kVariable, self.c_str(), 0);
  return "";
}

} // namespace prof::nvtx
