#include "tools/prof/stats/stats_scan.hpp"

#include "core/report/chunk.hpp"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace prof::tool {
namespace {

/// Leaves of the reduction tree: enough to keep every core busy, few enough
/// that merging partial aggregates costs nothing.
constexpr size_t kMaxLeaves = 64;

struct ScanBody {
  const report::ReportReader &reader;
  const ExportHost &host;
  const stats::StatsScope &scope;
  std::atomic<uint64_t> &done;
  const ScanOptions &options;
  std::thread::id caller;
  stats::StatsAggregator aggregator;
  std::vector<uint64_t> malformed; // chunk offsets, in file order
  std::vector<prof_event> batch;

  ScanBody(const report::ReportReader &r, const ExportHost &h, const stats::StatsScope &s,
           std::atomic<uint64_t> &d, const ScanOptions &o)
      : reader(r), host(h), scope(s), done(d), options(o), caller(std::this_thread::get_id()),
        aggregator(h, s) {}
  ScanBody(ScanBody &other, tbb::split)
      : ScanBody(other.reader, other.host, other.scope, other.done, other.options) {
    caller = other.caller;
  }

  void operator()(const tbb::blocked_range<size_t> &range) {
    const auto &chunks = reader.event_chunks();
    for (size_t i = range.begin(); i != range.end(); ++i) {
      if (!reader.decode_events(chunks[i], batch)) {
        malformed.push_back(chunks[i].payload_offset - report::kChunkHeaderSize);
        continue;
      }
      aggregator.add(batch.data(), batch.size());
      const uint64_t now = done.fetch_add(batch.size(), std::memory_order_relaxed) + batch.size();
      if (options.progress && std::this_thread::get_id() == caller)
        options.progress(now, reader.event_count());
    }
    // A decoded chunk is a few MB: keep none once this body's work is done.
    batch = std::vector<prof_event>();
  }
  void join(ScanBody &right) {
    aggregator.merge(right.aggregator);
    malformed.insert(malformed.end(), right.malformed.begin(), right.malformed.end());
  }
};

} // namespace

ScanResult scan_report(const report::ReportReader &reader, const ExportHost &host,
                       const stats::StatsScope &scope, const ScanOptions &options) {
  std::atomic<uint64_t> done{0};
  ScanBody body(reader, host, scope, done, options);
  const size_t last = std::min(options.last_chunk, reader.event_chunks().size());
  const size_t first = std::min(options.first_chunk, last);
  const size_t chunks = last - first;
  const size_t grain = std::max<size_t>(1, (chunks + kMaxLeaves - 1) / kMaxLeaves);
  const auto run = [&] {
    // Deterministic: the same tree of merges for any number of threads, so
    // sums of floating-point counter values come out identical.
    tbb::parallel_deterministic_reduce(tbb::blocked_range<size_t>(first, last, grain), body,
                                       tbb::simple_partitioner());
  };
  if (options.threads > 0) {
    // More than the machine has only makes TBB complain.
    const auto threads = std::min<size_t>(
        options.threads, static_cast<size_t>(std::max(1, tbb::info::default_concurrency())));
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute(run);
  } else {
    run();
  }
  if (options.progress) options.progress(reader.event_count(), reader.event_count());
  return {std::move(body.aggregator), std::move(body.malformed)};
}

} // namespace prof::tool
