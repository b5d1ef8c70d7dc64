// `prof [options] app [args]`: the capture itself.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Launches the application, collects with the selected sources, feeds the
/// exporters and the report, and returns the application's exit code.
/// Throws cli::UsageError for bad input found before anything started.
int run_capture(const RunContext &context);

/// The report file the command line asks for (--export-profile FILE, or
/// -o/--output NAME with ".profrep" added when NAME has no extension), ""
/// when none.
std::string report_output_path(const cli::CommandLine &command);

} // namespace prof::tool
