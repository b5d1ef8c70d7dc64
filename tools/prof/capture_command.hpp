// `prof [options] app [args]`: the capture itself.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Launches the application, collects with the selected sources, feeds the
/// exporters and the report, and returns the application's exit code.
/// Throws cli::UsageError for bad input found before anything started.
int run_capture(const RunContext &context);

/// The report file the command line asks for (--export-profile FILE, or
/// -o/--output NAME with ".profrep" added when NAME has no extension);
/// `prof profile` and `prof attach` without one write "report%i.profrep"
/// as nsys and asys do; --export-visual-profiler DIR puts it beside the
/// trace (DIR/prof-%p.profrep); "" when none (topsprof's flat form prints only).
std::string report_output_path(const cli::CommandLine &command);

/// Creates the folder --export-visual-profiler DIR/ names (trailing '/'), as
/// topsprof does, once the capture starts: the report goes there too.
void create_visual_profiler_folder(const cli::CommandLine &command);

} // namespace prof::tool
