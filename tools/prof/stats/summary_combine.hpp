// Rank summaries combined into what `prof stats` reports from: one catalog
// (strings deduplicated, each rank's tracks its own and labelled as `prof
// merge` labels them), a session as the merge's header, and one aggregator
// into which each summary's bytes are loaded with their ids translated and
// their times moved onto the merged clock (the merge's plan, from the
// summaries' headers and clock measurements). Memory holds one summary at
// a time besides the combination.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/plugin_host/catalog_export_view.hpp"
#include "core/plugin_host/console.hpp"
#include "core/plugin_host/session_details.hpp"
#include "tools/prof/stats/rank_summary.hpp"
#include <prof/stats/stats_aggregator.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prof::tool {

class CombinedSummaries {
public:
  /// Combines the summaries of `reports`: `made` when it holds one for each
  /// (make_summaries()), else read (making those missing or stale).
  /// Warnings (damage, lost events, clocks) go to `console` when given.
  /// Throws cli::UsageError naming a report that cannot be read.
  CombinedSummaries(const std::vector<std::string> &reports, core::Console *console,
                    std::vector<RankSummary> made = {});
  CombinedSummaries(const CombinedSummaries &) = delete;
  CombinedSummaries &operator=(const CombinedSummaries &) = delete;

  const ExportHost &host() const { return host_; }
  stats::StatsAggregator &aggregator() { return *aggregator_; }
  /// Lines for report `name`'s notes: what the summaries left out of it
  /// (collective calls: stragglers, hang; steps: steps).
  std::vector<std::string> notes_for(const std::string &name) const;

private:
  core::Catalog catalog_;
  report::Header header_;
  core::SessionDetails details_;
  prof_session_info session_{};
  std::unique_ptr<core::CatalogExportView> view_;
  ExportHost host_{nullptr, nullptr};
  std::optional<stats::StatsAggregator> aggregator_;
  std::string collectives_note_, steps_note_; ///< "" when nothing was left out
};

} // namespace prof::tool
