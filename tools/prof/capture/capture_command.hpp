// `prof [options] app [args]`: the capture itself.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Launches the application, collects with the selected sources, feeds the
/// exporters and the report, and returns the application's exit code.
/// Throws cli::UsageError for bad input found before anything started.
int run_capture(const RunContext &context);

} // namespace prof::tool
