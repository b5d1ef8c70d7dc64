#include "metrics.hpp"

#include <stdexcept>

namespace prof::gcu {

const MetricDefaults &metric_defaults(std::string_view name) {
  std::string known;
  for (const MetricDefaults &metric : kMetrics) {
    if (metric.name == name) return metric;
    known += (known.empty() ? "" : ", ") + std::string(metric.name);
  }
  throw std::runtime_error("--metrics '" + std::string(name) + "' is not a metric (known: " + known +
                           ")");
}

} // namespace prof::gcu
