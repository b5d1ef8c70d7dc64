#include "outliers_report.hpp"

#include <prof/stats/rank_outliers.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>

namespace prof::stats {
namespace {

Cell amount_cell(OutlierMeasure measure, double value) {
  if (measure == OutlierMeasure::memory_peak) return Cell::of_real(value, format_bytes(value));
  return Cell::of_ns(value > 0 ? static_cast<uint64_t>(value) : 0);
}

std::string rank_text(const RankEntry &entry) {
  return entry.node.empty() ? entry.label : entry.label + " (" + entry.node + ")";
}

} // namespace

StatsTable outliers_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"outliers",
                   "",
                   {{"Measure", "Measure", Align::Left},
                    {"Node", "Node", Align::Left},
                    {"Ranks", "Ranks", Align::Left},
                    {"What", "What", Align::Left},
                    {"Items", "Items", Align::Right},
                    {"Of", "Of", Align::Right},
                    {"Excess", "Excess", Align::Right},
                    {"Typical", "Typical", Align::Right},
                    {"Threshold", "Threshold", Align::Right}},
                   {},
                   "",
                   {}};
  const RankOutliers outliers = find_rank_outliers(aggregator, host);
  const size_t ranks = outliers.ranks.size();
  if (ranks < 3) {
    table.empty_text = "======== Outliers: fewer than 3 ranks (processes) in this report";
    return table;
  }
  const std::string typical =
      outliers.typical ? rank_text(outliers.ranks[*outliers.typical]) : std::string("none");
  table.empty_text =
      "======== Outliers: none among " + std::to_string(ranks) + " ranks; typical rank: " + typical;
  Section section{"", "======== Outliers (" + std::to_string(ranks) + " ranks):", {}};
  for (const OutlierFinding &f : outliers.findings) {
    std::vector<int> numbers;
    std::string labels; // processes that name no rank
    for (const size_t i : f.ranks) {
      numbers.push_back(outliers.ranks[i].rank);
      labels += (labels.empty() ? "" : ", ") + outliers.ranks[i].label;
    }
    const bool numbered =
        std::all_of(numbers.begin(), numbers.end(), [](int rank) { return rank >= 0; });
    const bool items = f.of_items > 0;
    section.rows.push_back({Cell::of_text(measure_name(f.measure)),
                            Cell::of_text(f.node.empty() ? "-" : f.node, f.node),
                            Cell::of_text(numbered ? rank_runs(numbers) : labels),
                            Cell::of_text(f.what.empty() ? "-" : f.what, f.what),
                            items ? Cell::of_count(f.items) : Cell::of_text("-", ""),
                            items ? Cell::of_count(f.of_items) : Cell::of_text("-", ""),
                            amount_cell(f.measure, f.excess), amount_cell(f.measure, f.typical),
                            amount_cell(f.measure, f.threshold)});
    table.notes.push_back(f.text);
  }
  if (section.rows.empty()) return table;
  table.sections.push_back(std::move(section));
  table.notes.push_back(
      "typical rank: " + typical +
      ", the closest to the median on every measure; Excess: how far past the "
      "typical rank (for steps and lateness, the median over the items that "
      "differed); a rank differs past the larger of 6 robust standard deviations "
      "and the measure's floor (1 ms, 5 % of the typical value, 16 MiB of memory)");
  return table;
}

} // namespace prof::stats
