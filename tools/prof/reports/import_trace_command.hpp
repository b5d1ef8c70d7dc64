// `prof import [-o OUT] [--force-overwrite] [--rank N] TRACE...`: PyTorch
// profiler traces users already have (Kineto's JSON as export_chrome_trace
// and tensorboard_trace_handler write it, .json.gz too, or the legacy
// profiler's) as reports that prof stats, merge and export read.
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// `args` are the words after "import". Each TRACE becomes one report; a
/// trace that cannot be read is a cli::UsageError naming it, what was
/// expected and the offset, and then no report is written.
int run_trace_import(const std::vector<std::string> &args, core::Console &console);

} // namespace prof::tool
