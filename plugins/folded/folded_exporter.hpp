// The folded exporter: writes the capture's CPU samples as folded stacks to
// `path` (through a temporary file renamed on success).
#ifndef PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP
#define PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP

#include "folded_stacks.hpp"

#include <prof/output/exporter_output.hpp>
#include <prof/plugin.hpp>

namespace prof::folded {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.folded"},
    output::kOverwriteOption,
    {"thread-frame", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "start each stack with the thread's name, as perf's stackcollapse does"},
};

/// What a folder given as `path` receives: prof-<pid>.folded.
inline constexpr const char *kExtension = ".folded";

class FoldedExporter {
public:
  explicit FoldedExporter(ExportHost host) : host_(host), file_(host, "folded", kExtension) {}
  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  ExportHost host_;
  output::ExporterOutput file_;
  bool thread_frame_ = true;
  FoldedStacks stacks_;
};

} // namespace prof::folded

#endif
