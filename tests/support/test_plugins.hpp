// Option tables of the plugins the config tests pretend are installed.
#pragma once

#include "core/config/plugin_catalog.hpp"

#include <prof/plugin.h>

namespace prof::config::testing {

inline const prof_option_desc kCpuUtilOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr, "sampling rate in Hz"},
    {"cpu", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample CPU utilization"},
    {"memory", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample memory use"},
};
inline const prof_option_desc kSummaryOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api", "what to sum up"},
};
inline const prof_option_desc kTraceOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu", "which events to print"},
};

inline prof_plugin_descriptor make_descriptor(const char *name, const prof_option_desc *options,
                                              uint32_t count, prof_plugin_kind kind) {
  prof_plugin_descriptor d{};
  d.struct_size = sizeof d;
  d.abi_major = PROF_ABI_MAJOR;
  d.abi_minor = PROF_ABI_MINOR;
  d.name = name;
  d.version = "1.0.0";
  d.kind = kind;
  d.scope = PROF_SCOPE_SYSTEM;
  d.options = options;
  d.option_count = count;
  return d;
}

/// cpu-util, summary and trace, as shipped.
inline PluginCatalog shipped_catalog() {
  static const prof_plugin_descriptor cpu_util =
      make_descriptor("cpu-util", kCpuUtilOptions, 3, PROF_KIND_SOURCE);
  static const prof_plugin_descriptor summary =
      make_descriptor("summary", kSummaryOptions, 1, PROF_KIND_EXPORTER);
  static const prof_plugin_descriptor trace =
      make_descriptor("trace", kTraceOptions, 1, PROF_KIND_EXPORTER);
  return catalog_from_descriptors({&trace, &cpu_util, &summary});
}

} // namespace prof::config::testing
