// The gcu-metrics exporter: topsprof's GCU metric tables (--metrics), printed
// after the statistics. It belongs to the GCU family because the metrics
// are made of the gcu and sip-pmc sources' events.
#pragma once

#include "sip_efficiency.hpp"

#include <prof/plugin.hpp>

#include <optional>

namespace prof::gcu {

class MetricsExporter {
public:
  explicit MetricsExporter(ExportHost host) : host_(host) {}

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  ExportHost host_;
  std::optional<SipEfficiency> sip_efficiency_; ///< sip_busy_efficiency_per_op
};

} // namespace prof::gcu
