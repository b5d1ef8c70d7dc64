// The gcu-metrics exporter: topsprof's GCU metric tables (--metrics), printed
// after the statistics. It belongs to the GCU family because the metrics
// are made of the gcu and sip-pmc sources' events.
#pragma once

#include "sip_efficiency.hpp"

#include <prof/plugin.hpp>

namespace prof::gcu {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kMetricsOptions[] = {
    {"metrics", PROF_OPTION_ENUM, "sip_busy_efficiency_per_op", 0, -1, "sip_busy_efficiency_per_op",
     "the metric table to print: per operator, each SIP's busy cycles without and with waits; "
     "--metrics"},
};

class MetricsExporter {
public:
  /// `metrics` has one choice, and the host refuses any other before begin.
  explicit MetricsExporter(ExportHost host) : host_(host), sip_efficiency_(host_) {}

  bool begin() { return true; }
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  ExportHost host_;
  SipEfficiency sip_efficiency_; ///< sip_busy_efficiency_per_op
};

} // namespace prof::gcu
