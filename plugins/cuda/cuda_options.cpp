#include "cuda_source.hpp"

#include <stdexcept>
#include <string>

namespace prof::cuda {

CudaOptions read_cuda_options(const Host &host) {
  CudaOptions options;
  const std::string api(host.option("api").value_or("runtime"));
  options.runtime_api = api == "runtime" || api == "all";
  options.driver_api = api == "driver" || api == "all";
  options.memory = host.option_bool("memory-usage", true);
  options.graph_level = host.option("graph-trace").value_or("node") == "graph";
  const long long mb = 1 << 20;
  options.device_buffer_bytes = static_cast<size_t>(host.option_int("device-buffer-size", 8) * mb);
  long long watermark = host.option_int("watermark-threshold", 2);
  const long long ring = host.option_int("host-ringbuffer-size", 64);
  // The default watermark (2 MB) follows a smaller ring (the table allows 2),
  // as the gcu sources' does; a chosen one must fit.
  const auto chosen = host.option("watermark-threshold");
  if (watermark >= ring && (!chosen || *chosen == "2")) watermark = ring - 1;
  if (watermark >= ring)
    throw std::runtime_error("watermark-threshold (" + std::to_string(watermark) +
                             " MB) must be below host-ringbuffer-size (" + std::to_string(ring) +
                             " MB)");
  options.buffer_bytes = static_cast<size_t>(watermark * mb);
  options.budget_bytes = static_cast<size_t>(ring * mb);
  options.flush_period_ms = static_cast<uint32_t>(host.option_int("flush-period", 100));
  options.metrics = host.option_bool("metrics", false);
  options.metrics_hz = static_cast<int>(host.option_int("metrics-frequency", 10));
  return options;
}

} // namespace prof::cuda
