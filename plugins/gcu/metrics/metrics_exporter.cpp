#include "metrics_exporter.hpp"

#include <string>

namespace prof::gcu {

bool MetricsExporter::begin() {
  const std::string_view metrics = host_.option("metrics").value_or("");
  if (metrics != "sip_busy_efficiency_per_op") {
    host_.log(PROF_LOG_ERROR, "gcu-metrics: unknown metric '" + std::string(metrics) +
                                  "' (known: sip_busy_efficiency_per_op)");
    return false;
  }
  sip_efficiency_.emplace(host_);
  return true;
}

bool MetricsExporter::consume(const prof_event *events, size_t count) {
  if (!sip_efficiency_) return false;
  for (size_t i = 0; i < count; ++i)
    sip_efficiency_->add(events[i]);
  return true;
}

bool MetricsExporter::end() {
  if (!sip_efficiency_) return false;
  host_.print("======== Sip busy efficiency(Per-op Mode)");
  for (const std::string &line : sip_efficiency_->table())
    host_.print(line);
  return true;
}

} // namespace prof::gcu
