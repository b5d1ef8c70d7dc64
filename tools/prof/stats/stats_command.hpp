// `prof stats [--report NAMES] [--format table|csv|json] [-o FILE] REPORT`:
// statistics computed straight from a saved report (asys/nsys `stats`), its
// chunks scanned in parallel. `prof stats --help-reports` lists the reports.
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// `args` are the words after "stats". Returns the exit code; bad usage or
/// input is a cli::UsageError (exit 2, nothing written).
int run_stats(const std::vector<std::string> &args, core::Console &console);

} // namespace prof::tool
