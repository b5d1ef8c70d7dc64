// ABI glue of the summary exporter: option table, vtable and entry symbol.
#include "summary_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api",
     "summary: all activities and counters; gcu: device activities only; "
     "per-gcu: one table per device; api: API calls only"},
};

constexpr prof_exporter_vtable kVtable =
    prof::ExporterAdapter<prof::summary::SummaryExporter>::vtable();

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::make_descriptor(
      "summary", "1.0.0", "Statistics of activities and counters (topsprof statistics mode)",
      PROF_KIND_EXPORTER, PROF_SCOPE_SYSTEM, kOptions, sizeof(kOptions) / sizeof(kOptions[0]));
  d.exporter = &kVtable;
  return d;
}();

} // namespace

extern "C" PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry() {
  return &kDescriptor;
}
