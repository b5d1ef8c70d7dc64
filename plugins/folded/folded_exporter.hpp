// The folded exporter: writes the capture's CPU samples as folded stacks to
// `path` (through a temporary file renamed on success).
#ifndef PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP
#define PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP

#include "folded_stacks.hpp"

#include <prof/plugin.hpp>

#include <string>

namespace prof::folded {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "file to write the folded stacks to (required)"},
    {"overwrite", PROF_OPTION_BOOL, "false", 0, -1, nullptr, "replace an existing file"},
    {"thread-frame", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "start each stack with the thread's name, as perf's stackcollapse does"},
};

class FoldedExporter {
public:
  explicit FoldedExporter(ExportHost host) : host_(host) {}
  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  ExportHost host_;
  std::string path_;
  bool overwrite_ = false;
  bool thread_frame_ = true;
  FoldedStacks stacks_;
};

} // namespace prof::folded

#endif
