// `prof diff BASE NEW`: two runs (reports, or folders of rank reports)
// compared item by item: operators, device work, collectives, Python
// functions, ranges and steps, each slower, faster, new, gone or the same
// (docs/diff.md).
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// `args` are the words after "diff". Returns 0, or 1 when an item is
/// slower by at least --fail-on-regression; bad usage or input is a
/// cli::UsageError (exit 2, nothing written).
int run_diff(const std::vector<std::string> &args, core::Console &console);

} // namespace prof::tool
