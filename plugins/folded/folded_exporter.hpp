// The folded exporter: writes the capture's CPU samples as folded stacks to
// `path` (through a temporary file renamed on success).
#ifndef PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP
#define PROF_PLUGINS_FOLDED_FOLDED_EXPORTER_HPP

#include "folded_stacks.hpp"

#include <prof/plugin.hpp>

#include <string>

namespace prof::folded {

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
