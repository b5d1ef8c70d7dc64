// A saved report through exporters, as a live capture feeds them: what
// --import-profile, prof export and prof merge's Perfetto output share.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/plugin_host/console.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/capture/plugin_selection.hpp"

#include <functional>
#include <string>
#include <vector>

namespace prof::tool {

/// Events to add to a report's (what `prof export --mark` draws): made
/// from the open report once its catalog is loaded, declaring in the
/// catalog whatever they name.
using ReportAdditions =
    std::function<std::vector<prof_event>(const report::ReportReader &, core::Catalog &)>;

/// Reads the report at `path` and replays its events into `exporters`, and
/// after them those `additions` makes (when given). A file that is not a
/// readable report is a usage error (exit 2); a cut or damaged one is shown
/// up to where it can be read, with a warning. Returns the exit code.
int export_saved_report(const std::string &path, const std::vector<SelectedPlugin> &exporters,
                        core::Console &console, const ReportAdditions &additions = {});

} // namespace prof::tool
