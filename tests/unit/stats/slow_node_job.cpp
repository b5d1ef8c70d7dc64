#include "slow_node_job.hpp"

#include "core/plugin_host/report_export_view.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include <prof/stats/html_page.hpp>
#include <prof/stats/rank_outliers.hpp>
#include <prof/stats/stats_reports.hpp>

#include <stdexcept>

#include <algorithm>
#include <cstdio>
#include <set>

namespace prof::stats::testing {

std::string node_of(const SlowNodeJob &job, size_t rank) {
  char name[16];
  std::snprintf(name, sizeof name, "node%03zu", rank / job.ranks_per_node);
  return name;
}

TestReport slow_node_report(const SlowNodeJob &job) {
  TestReport report;
  const std::set<size_t> slow(job.slow.begin(), job.slow.end());
  std::vector<uint32_t> threads;
  for (size_t r = 0; r < job.ranks; ++r) {
    const std::string rank = std::to_string(r);
    const uint32_t process = report.process("python3 /job/conv_ddp.py 6 1 3 0.3 (rank " + rank +
                                                ") [" + node_of(job, r) + " rank " + rank + "]",
                                            static_cast<int>(20000 + r));
    threads.push_back(report.thread(process, "python3", static_cast<int>(20000 + r)));
  }
  constexpr uint64_t kCompute = 100'000'000, kPeriod = 110'000'000, kAllReduce = 1'000'000;
  for (size_t s = 0; s < job.steps; ++s) {
    const uint64_t start = kOrigin + s * kPeriod;
    std::vector<uint64_t> arrival(job.ranks);
    for (size_t r = 0; r < job.ranks; ++r) {
      const uint64_t jitter = (r * 7919 + s * 104729) % 40'000; // under 40 us
      arrival[r] = start + kCompute + jitter + (slow.count(r) && s % 3 == 1 ? kSlowBy : 0);
    }
    const uint64_t last = *std::max_element(arrival.begin(), arrival.end());
    for (size_t r = 0; r < job.ranks; ++r) {
      report.step(threads[r], start, arrival[r] - start, s + 1);
      report.communication(threads[r], arrival[r], last + kAllReduce - arrival[r], "AllReduce",
                           "world", 1 << 20, s + 1);
    }
  }
  return report;
}

SlowNodePage slow_node_page(const SlowNodeJob &job, const std::string &path) {
  slow_node_report(job).write(path);
  report::ReportReader reader;
  if (!reader.open(path)) throw std::runtime_error("cannot read " + path);
  const core::ReportExportView view(reader);
  const std::vector<std::string> names = {"outliers", "stragglers"};
  StatsScope scope = scope_for(names, {});
  scope.collectives = scope.communication = scope.steps = true;
  rank_outliers_scope(scope);
  StatsAggregator aggregator = tool::scan_report(reader, view.host(), scope, {}).aggregator;
  SlowNodePage page{rank_charts(aggregator, view.host()), {}};
  std::vector<StatsTable> tables;
  for (const std::string &name : names)
    tables.push_back(build_report(name, aggregator, view.host(), {}));
  page.html =
      render_html(tables, page.charts, "prof stats: " + std::to_string(job.ranks) + " ranks");
  return page;
}

} // namespace prof::stats::testing
