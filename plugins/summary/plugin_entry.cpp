// ABI glue of the summary exporter: descriptor (its option table is in the header) and entry
// symbol.
#include "summary_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::exporter_descriptor<prof::summary::SummaryExporter>(
      "summary", "1.0.0", "Statistics of activities and counters (topsprof statistics mode)",
      prof::summary::kOptions, "prof project");
  d.flags = PROF_PLUGIN_STATES_DROPS; // its closing warning line
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
