// `prof --import-profile FILE [print options]`: a saved report through the
// same exporters as a live capture.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Reads the report and runs the selected exporters on it. A file that is
/// not a readable report is a usage error (exit 2); a cut or damaged one is
/// shown up to where it can be read, with a warning.
int run_replay(const RunContext &context);

} // namespace prof::tool
