// ABI glue of the summary exporter: option table, vtable and entry symbol.
#include "summary_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api",
     "summary: all activities and counters; gcu: device activities only; "
     "per-gcu: one table per device; api: API calls only"},
    {"functions", PROF_OPTION_ENUM, "all", 0, -1, "all,flat,top-down,bottom-up,none",
     "CPU function view of sampled call stacks: which tables to print"},
    {"function-rows", PROF_OPTION_INT, "20", 1, 100000, nullptr,
     "rows of the flat CPU function table"},
    {"tree-min-percent", PROF_OPTION_DOUBLE, "2", 0, 100, nullptr,
     "call-tree nodes under this share of the samples are left out"},
};

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::exporter_descriptor<prof::summary::SummaryExporter>(
      "summary", "1.0.0", "Statistics of activities and counters (topsprof statistics mode)",
      kOptions, "prof project");
  d.flags = PROF_PLUGIN_STATES_DROPS; // its closing warning line
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
