// The host side of importer plugins: prof import hands a file's bytes to the
// importer that takes it (the one whose probe answers highest), gathers what
// the importer emits as a source would, and writes it as a .profrep with the
// capture facts the importer gave.
#pragma once

#include "core/plugin_host/plugin_registry.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace prof::core {

/// A file an importer refused: the importer's one line, naming what it
/// expected where.
class ImportRefused : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One file to import.
struct ImportJob {
  std::string path;                 ///< as the user named it
  std::string_view data;            ///< its bytes, gzip removed
  std::optional<int64_t> rank;      ///< --rank: overrides the file's own
  std::optional<int64_t> name_rank; ///< the rank its file name holds
};

/// What was written.
struct ImportOutcome {
  uint64_t events = 0;
  /// The file had wall-clock times: ranks merge on them. Else its times
  /// count from a profiler's start, and ranks merge at their starts.
  bool wall_clock = false;
  std::string format;                ///< as the importer named it ("kineto", "legacy")
  std::vector<std::string> warnings; ///< what the importer logged at PROF_LOG_WARN
  /// Events left out because they named no track the importer declared.
  uint64_t invalid_events = 0;
};

/// How many leading bytes an importer's probe sees.
inline constexpr size_t kProbeBytes = 4096;

/// The importers among `registry`'s plugins, by how surely each reads a
/// file named `path` that begins with `head`: the best first, those that
/// answer 0 left out.
std::vector<const PluginInfo *> importers_for(const PluginRegistry &registry, std::string_view path,
                                              std::string_view head);

/// Runs `importer` on `job` and writes what it emits to `report_path` (a new
/// file). Throws ImportRefused when the importer refuses the file (nothing
/// is written), report::ReportError when writing fails.
ImportOutcome import_file(const PluginInfo &importer, const ImportJob &job,
                          const std::string &report_path);

} // namespace prof::core
