#include "cuda_source.hpp"

#include <prof/declared_options.hpp>

#include <stdexcept>
#include <string>

namespace prof::cuda {

CudaOptions read_cuda_options(const Host &host) {
  const DeclaredOptions declared(host, kOptions);
  CudaOptions options;
  const std::string api(declared.text("api"));
  options.runtime_api = api == "runtime" || api == "all";
  options.driver_api = api == "driver" || api == "all";
  options.memory = declared.flag("memory-usage");
  options.graph_level = declared.text("graph-trace") == "graph";
  const long long mb = 1 << 20;
  options.device_buffer_bytes = static_cast<size_t>(declared.integer("device-buffer-size") * mb);
  long long watermark = declared.integer("watermark-threshold");
  const long long ring = declared.integer("host-ringbuffer-size");
  // The default watermark follows a smaller ring (the table allows 2), as
  // the gcu sources' does; a chosen one must fit.
  const std::string_view chosen = declared.text("watermark-threshold");
  if (watermark >= ring && chosen == declared.default_of("watermark-threshold"))
    watermark = ring - 1;
  if (watermark >= ring)
    throw std::runtime_error("watermark-threshold (" + std::to_string(watermark) +
                             " MB) must be below host-ringbuffer-size (" + std::to_string(ring) +
                             " MB)");
  options.buffer_bytes = static_cast<size_t>(watermark * mb);
  options.budget_bytes = static_cast<size_t>(ring * mb);
  options.flush_period_ms = static_cast<uint32_t>(declared.integer("flush-period"));
  options.metrics = declared.flag("metrics");
  options.metrics_hz = static_cast<int>(declared.integer("metrics-frequency"));
  return options;
}

} // namespace prof::cuda
