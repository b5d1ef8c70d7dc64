// The ranks `prof merge --ranks outliers` keeps: those
// `prof stats --report outliers` names, and the typical rank.
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// The outlier ranks of the job whose reports are `paths` (merged and
/// scanned as `prof stats` does), then the typical rank; a rank is its
/// merge label's ("rank N": the header's rank, else the report's position).
/// Throws cli::UsageError when a report cannot be read, or when no rank
/// could be compared (fewer than 3).
std::vector<int> outlier_ranks(const std::vector<std::string> &paths, core::Console &console);

} // namespace prof::tool
