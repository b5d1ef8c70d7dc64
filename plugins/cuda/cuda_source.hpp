// The cuda source inside the profiled application: CUPTI's activity records
// (kernels, copies, sets, waits, API calls, allocations, graphs) drained
// into prof's rings, and NVML's GPU metrics. Without a CUDA driver it warns
// once and records nothing; the application runs on unharmed.
#ifndef PROF_PLUGINS_CUDA_CUDA_SOURCE_HPP
#define PROF_PLUGINS_CUDA_CUDA_SOURCE_HPP

#include "activity_buffers.hpp"
#include "activity_translator.hpp"
#include "cuda_tracks.hpp"
#include "cupti_library.hpp"
#include "gpu_metrics_sampler.hpp"

#include <prof/plugin.hpp>

#include <memory>
#include <mutex>
#include <vector>

namespace prof::cuda {

#ifndef PROF_CUPTI_LIBRARY
#define PROF_CUPTI_LIBRARY "libcupti.so"
#endif

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
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

/// What a capture asks of CUDA, read from the plugin's options.
struct CudaOptions {
  bool runtime_api = true;
  bool driver_api = false;
  bool memory = true;
  bool graph_level = false; ///< a graph launch as one slice, not its nodes
  size_t device_buffer_bytes = 8u << 20;
  size_t buffer_bytes = 2u << 20; ///< the watermark
  size_t budget_bytes = 64u << 20;
  uint32_t flush_period_ms = 100;
  bool metrics = false;
  int metrics_hz = 10;
};

class CudaSource {
public:
  explicit CudaSource(Host host) : host_(host) {}
  ~CudaSource();
  CudaSource(const CudaSource &) = delete;
  CudaSource &operator=(const CudaSource &) = delete;

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  static void buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
  static void buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
                               size_t valid_size);
  void drain(CUcontext context, uint32_t stream, uint8_t *buffer, size_t valid_size);
  bool start_cupti();
  void enable_kinds();
  void disable_kinds();
  void report_counts();

  Host host_;
  CudaOptions options_;
  const CuptiLibrary *cupti_ = nullptr;
  std::unique_ptr<CudaTracks> tracks_;
  std::unique_ptr<ActivityTranslator> translator_;
  std::unique_ptr<ActivityBuffers> buffers_;
  std::unique_ptr<GpuMetricsSampler> metrics_;
  std::vector<CUpti_ActivityKind> kinds_; // enabled while collecting
  std::mutex drain_mutex_;
  bool started_ = false;
};

/// Reads and checks the options; throws std::runtime_error naming the option.
CudaOptions read_cuda_options(const Host &host);

} // namespace prof::cuda

#endif
