// Plugins the configuration fuzz targets pretend are installed: one option
// of every type, with ranges and choices, under names the shipped profiles
// (configs/) use.
#pragma once

#include "core/config/plugin_catalog.hpp"
#include "tests/support/test_plugins.hpp"

#include <prof/plugin.h>

namespace prof::fuzz {

inline const prof_option_desc kCpuUtilOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr, "sampling rate in Hz"},
    {"cpu", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample CPU utilization"},
    {"memory", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample memory use"},
    {"scale", PROF_OPTION_DOUBLE, "1.5", 0.25, 8, nullptr, "a factor"},
};
inline const prof_option_desc kSummaryOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api", "what to sum up"},
    {"title", PROF_OPTION_STRING, "", 0, -1, nullptr, "free text"},
};
inline const prof_option_desc kTraceOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu", "which events to print"},
};

/// cpu-util, summary and trace.
inline config::PluginCatalog fuzz_plugin_catalog() {
  static const prof_plugin_descriptor cpu_util =
      config::testing::make_descriptor("cpu-util", kCpuUtilOptions, 4, PROF_KIND_SOURCE);
  static const prof_plugin_descriptor summary =
      config::testing::make_descriptor("summary", kSummaryOptions, 2, PROF_KIND_EXPORTER);
  static const prof_plugin_descriptor trace =
      config::testing::make_descriptor("trace", kTraceOptions, 1, PROF_KIND_EXPORTER);
  return config::catalog_from_descriptors({&trace, &cpu_util, &summary});
}

} // namespace prof::fuzz
