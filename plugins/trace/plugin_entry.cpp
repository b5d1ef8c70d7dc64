// ABI glue of the trace exporter: option table, vtable and entry symbol.
#include "trace_exporter.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu",
     "all: every slice and instant with its track; gcu: device activities only "
     "(topsprof --print-gcu-trace)"},
};

constexpr prof_exporter_vtable kVtable =
    prof::ExporterAdapter<prof::trace::TraceExporter>::vtable();

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::make_descriptor(
      "trace", "1.0.0", "Activities in start-time order (topsprof trace mode)", PROF_KIND_EXPORTER,
      PROF_SCOPE_SYSTEM, kOptions, sizeof(kOptions) / sizeof(kOptions[0]));
  d.exporter = &kVtable;
  return d;
}();

} // namespace

extern "C" PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry() {
  return &kDescriptor;
}
