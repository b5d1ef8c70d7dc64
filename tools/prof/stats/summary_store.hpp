// Where rank summaries are kept and when they are made: beside each report
// ("r0.profrep" -> "r0.profrep.summary"), or in the user's cache folder
// when the report's folder is not writable; made once and reused while the
// report keeps its size and modification time. A stale, damaged or
// unreadable summary is made again (a summary is a cache, never an input).
#pragma once

#include "core/plugin_host/console.hpp"
#include "tools/prof/stats/rank_summary.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace prof::tool {

/// The file that keeps the summary of the report at `report_path`.
std::string summary_path(const std::string &report_path);

/// The summary of `report_path`: its file's when that is fresh, else made
/// now and written (a write that fails leaves the summary unkept, with a
/// warning). A damaged file is named in a warning and made again. Throws
/// cli::UsageError naming a report that cannot be read.
RankSummary summary_of(const std::string &report_path, core::Console *console, size_t threads = 0);

/// The summaries of reports [first, last) of `reports`, those missing,
/// stale or damaged made, several at once (TBB); throws the first failure,
/// by report order.
std::vector<RankSummary> make_summaries(const std::vector<std::string> &reports, size_t first,
                                        size_t last, core::Console *console);

} // namespace prof::tool
