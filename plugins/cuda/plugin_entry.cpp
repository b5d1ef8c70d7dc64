// ABI glue of the cuda source: option table, descriptor and entry symbol.
// Reading the descriptor loads nothing: CUPTI and NVML are opened only when
// an instance starts inside the application.
#include "cuda_source.hpp"

#include <prof/plugin.hpp>

#ifndef PROF_CUPTI_LIBRARY
#define PROF_CUPTI_LIBRARY "libcupti.so"
#endif

namespace {

constexpr prof_option_desc kOptions[] = {
    {"api", PROF_OPTION_ENUM, "runtime", 0, -1, "none,runtime,driver,all",
     "API calls to trace, with flows to the work they queued"},
    {"memory-usage", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "allocations and frees, and memory used per device; --cuda-memory-usage"},
    {"graph-trace", PROF_OPTION_ENUM, "node", 0, -1, "node,graph",
     "a CUDA graph launch as its nodes' work, or as one slice; --cuda-graph-trace"},
    {"device-buffer-size", PROF_OPTION_INT, "8", 1, 64, nullptr,
     "CUPTI's device buffer per context in MB; --device-buffer-size"},
    {"host-ringbuffer-size", PROF_OPTION_INT, "64", 2, 64, nullptr,
     "MB of record buffers CUPTI may hold before it drops records; --host-ringbuffer-size"},
    {"watermark-threshold", PROF_OPTION_INT, "2", 1, 63, nullptr,
     "MB of records a buffer holds before it is drained, below host-ringbuffer-size; "
     "--watermark-threshold"},
    {"flush-period", PROF_OPTION_INT, "100", 0, 10000, nullptr,
     "also drain CUPTI's buffers this often (ms); 0: only when full"},
    {"metrics", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "sample GPU metrics through NVML (utilization, memory, SM clock, power, temperature)"},
    {"metrics-frequency", PROF_OPTION_INT, "10", 1, 1000, nullptr,
     "GPU metric samples per second (Hz); --gpu-metrics-frequency"},
    {"cupti", PROF_OPTION_STRING, PROF_CUPTI_LIBRARY, 0, -1, nullptr, "the CUPTI library to load"},
    {"nvml", PROF_OPTION_STRING, "libnvidia-ml.so.1", 0, -1, nullptr,
     "the NVML library to load (the driver's)"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::cuda::CudaSource>(
    "cuda", "1.0.0",
    "NVIDIA GPUs through CUPTI: kernels, copies, sets, waits, runtime and driver API calls, "
    "device memory and CUDA graphs; GPU metrics through NVML",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
