#include "tools/prof/stats/stats_scan.hpp"

#include "core/report/chunk.hpp"
#include "tools/prof/stats/parallel_reduce_module.hpp"

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

  void run(size_t begin, size_t end) {
    const auto &chunks = reader.event_chunks();
    for (size_t i = begin; i != end; ++i) {
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

constexpr prof_reduce_body_ops kScanOps{
    [](void *body) -> void * {
      const auto &other = *static_cast<ScanBody *>(body);
      auto *split = new ScanBody(other.reader, other.host, other.scope, other.done, other.options);
      split->caller = other.caller;
      return split;
    },
    [](void *body, size_t begin, size_t end) { static_cast<ScanBody *>(body)->run(begin, end); },
    [](void *left, void *right) {
      static_cast<ScanBody *>(left)->join(*static_cast<ScanBody *>(right));
    },
    [](void *body) { delete static_cast<ScanBody *>(body); },
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
  // Deterministic: the same tree of merges for any number of threads, so
  // sums of floating-point counter values come out identical.
  parallel_reduce_function()(&body, &kScanOps, first, last, grain, options.threads);
  if (options.progress) options.progress(reader.event_count(), reader.event_count());
  return {std::move(body.aggregator), std::move(body.malformed)};
}

} // namespace prof::tool
