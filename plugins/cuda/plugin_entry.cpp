// ABI glue of the cuda source: descriptor and entry symbol.
// Reading the descriptor loads nothing: CUPTI and NVML are opened only when
// an instance starts inside the application.
#include "cuda_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::cuda::CudaSource>(
    "cuda", "1.0.0",
    "NVIDIA GPUs through CUPTI: kernels, copies, sets, waits, runtime and driver API calls, "
    "device memory and CUDA graphs; GPU metrics through NVML",
    PROF_SCOPE_PROCESS, prof::cuda::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
