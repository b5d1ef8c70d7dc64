#include "nvtx_injection.hpp"

#include "nvtx_handlers.hpp"

#include <prof/injection_variable.hpp>

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  return prof::nvtx::install_handlers(get_export_table);
}

namespace prof::nvtx {

std::string point_nvtx_at_this_library() {
  return point_injection_at("NVTX_INJECTION64_PATH",
                            reinterpret_cast<const void *>(&InitializeInjectionNvtx2),
                            "NVTX annotation");
}

} // namespace prof::nvtx
