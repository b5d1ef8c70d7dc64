// The scan behind `prof stats`: a report's EVENTS chunks decoded and folded
// into per-worker StatsAggregators with TBB, then merged. At most one decoded
// chunk per worker is in memory, besides the aggregates.
#pragma once

#include "core/report/report_reader.hpp"
#include <prof/stats/stats_aggregator.hpp>

#include <prof/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace prof::tool {

struct ScanOptions {
  size_t threads = 0; ///< worker threads; 0: as many as TBB offers
  /// The EVENTS chunks to scan, [first, last) in file order (a share of
  /// the report for one process of a distributed `prof stats`).
  size_t first_chunk = 0;
  size_t last_chunk = SIZE_MAX;
  /// Events done and total; called on the calling thread only.
  std::function<void(uint64_t, uint64_t)> progress;
};

struct ScanResult {
  stats::StatsAggregator aggregator;
  /// Offsets of EVENTS chunks that did not decode (possible when the reader
  /// opened the report without check_events), in file order.
  std::vector<uint64_t> malformed_chunks;
};

/// Every event of `reader` folded into one aggregator over `host` (which must
/// resolve the reader's ids). The split into work is fixed by the number of
/// chunks alone, so the result does not depend on the number of threads.
ScanResult scan_report(const report::ReportReader &reader, const ExportHost &host,
                       const stats::StatsScope &scope, const ScanOptions &options = {});

} // namespace prof::tool
