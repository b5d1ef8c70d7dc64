// `prof export --mark critical-path`: the critical path of a report's slowest
// steps (prof::stats::find_critical_paths) added to what the exporters
// receive, as a track of its own ("Critical path") with a slice per step and
// one per stretch of the path, and flows from each stretch to the next where
// the path moves to another thread, device or rank. Every exporter shows it
// unchanged.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/report/report_reader.hpp"

#include <prof/event.h>

#include <cstdint>
#include <vector>

namespace prof::tool {

/// Walks the `slowest` slowest steps of `reader` and those of `steps`,
/// declares the path's track, strings and arguments in `catalog` (loaded
/// from `reader`) and returns the events that draw the paths. Throws
/// cli::UsageError for a step the report does not have.
std::vector<prof_event> critical_path_events(const report::ReportReader &reader,
                                             core::Catalog &catalog, size_t slowest,
                                             const std::vector<uint64_t> &steps);

} // namespace prof::tool
