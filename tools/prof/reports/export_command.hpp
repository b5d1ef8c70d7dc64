// `prof export [--type TYPE] [-o OUTPUT] [--force-overwrite] [--mark critical-path] REPORT`: a
// saved report through one file exporter (asys/nsys `export`).
#pragma once

#include "core/plugin_host/console.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// `args` are the words after "export". Returns the exit code; bad input is
/// a cli::UsageError.
int run_export(const std::vector<std::string> &args, core::Console &console);

} // namespace prof::tool
