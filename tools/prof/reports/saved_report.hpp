// A saved report through exporters, as a live capture feeds them: what
// --import-profile, prof export and prof merge's Perfetto output share.
#pragma once

#include "core/plugin_host/console.hpp"
#include "tools/prof/capture/plugin_selection.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// Reads the report at `path` and replays its events into `exporters`. A
/// file that is not a readable report is a usage error (exit 2); a cut or
/// damaged one is shown up to where it can be read, with a warning. Returns
/// the exit code.
int export_saved_report(const std::string &path, const std::vector<SelectedPlugin> &exporters,
                        core::Console &console);

} // namespace prof::tool
