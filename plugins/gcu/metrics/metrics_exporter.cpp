#include "metrics_exporter.hpp"

#include <string>

namespace prof::gcu {

bool MetricsExporter::consume(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i)
    sip_efficiency_.add(events[i]);
  return true;
}

bool MetricsExporter::end() {
  host_.print("======== Sip busy efficiency(Per-op Mode)");
  for (const std::string &line : sip_efficiency_.table())
    host_.print(line);
  return true;
}

} // namespace prof::gcu
