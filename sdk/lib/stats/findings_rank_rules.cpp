// Rules that compare ranks (processes): a straggler that recurs on one rank,
// one rank's step time above the others', communication that never overlaps
// compute. They read the stragglers, steps and overlap reports' results.
#include "findings_rules.hpp"

#include <prof/stats/stats_reports.hpp>
#include <prof/stats/step_times.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cstdio>

namespace prof::stats {
namespace {

/// The cell of column `key` in `row` of `section`; nullptr when none.
const Cell *cell(const StatsTable &table, const Section &section, size_t row,
                 std::string_view key) {
  const std::vector<Column> &columns = table.columns_of(section);
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c].key == key && c < section.rows[row].size()) return &section.rows[row][c];
  return nullptr;
}

/// A cell's number; 0 for "-" and text.
uint64_t number(const Cell *c) {
  return c != nullptr && c->kind == Cell::Kind::Integer ? c->integer : 0;
}
std::string text(const Cell *c) { return c != nullptr ? c->data : std::string(); }

std::string percent(double value) {
  char out[32];
  std::snprintf(out, sizeof out, "%.0f%%", value);
  return out;
}

/// A rank that came last to a collective again and again (the stragglers
/// report's rows: per communicator, name and rank).
void straggler_rule(RuleContext &context) {
  const StatsTable table = build_report("stragglers", context.aggregator, context.host, {});
  for (const Section &section : table.sections)
    for (size_t row = 0; row < section.rows.size(); ++row) {
      const uint64_t operations = number(cell(table, section, row, "Operations"));
      const uint64_t last = number(cell(table, section, row, "Last"));
      const uint64_t late = number(cell(table, section, row, "LateAvg(ns)"));
      if (operations == 0 ||
          static_cast<double>(operations) < context.limits["straggler-min-ops"] ||
          100.0 * static_cast<double>(last) / static_cast<double>(operations) <
              context.limits["straggler-percent"] ||
          late < context.limits.us("straggler-late-us"))
        continue;
      const std::string process = text(cell(table, section, row, "Process"));
      const std::string name = text(cell(table, section, row, "Name"));
      std::vector<std::string> evidence{
          "communicator " + section.label + ", " + name + ": last in " + std::to_string(last) +
          " of " + std::to_string(operations) + " operations, " + format_duration(late) +
          " late on average, at most " +
          format_duration(number(cell(table, section, row, "LateMax(ns)")))};
      // The operations it held up longest, as the stragglers report names them.
      const std::string prefix = "late: " + section.label + " " + name + " #";
      for (const std::string &note : table.notes)
        if (evidence.size() < 4 && note.starts_with(prefix) &&
            note.find(": " + process + " last") != std::string::npos)
          evidence.push_back(note.substr(6));
      context.add(
          {"straggler", Severity::Low,
           process + " came last to " + name + " on " + section.label + " in " +
               percent(100.0 * static_cast<double>(last) / static_cast<double>(operations)) +
               " of its operations: the other ranks waited for it",
           last * late, std::move(evidence),
           "see what that rank did before the collective (its steps, device work and "
           "host activity): an uneven share of data or work, a slower device or link, "
           "or host work (data loading, logging) only it does"});
    }
}

uint64_t median(std::vector<uint64_t> values) {
  if (values.empty()) return 0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

/// One rank whose steps take longer than the others' (the steps report's
/// step times).
void slow_rank_rule(RuleContext &context) {
  const StepTimes times = step_times(context.aggregator, context.host);
  if (times.ranks.size() < 2) return;
  std::vector<std::vector<uint64_t>> by_rank(times.ranks.size());
  for (const StepTimes::Step &step : times.steps)
    for (const auto &[rank, ns] : step.times)
      by_rank[rank].push_back(ns);
  std::vector<uint64_t> medians;
  for (const auto &ns : by_rank)
    medians.push_back(median(ns));
  for (size_t rank = 0; rank < times.ranks.size(); ++rank) {
    std::vector<uint64_t> others;
    for (size_t other = 0; other < medians.size(); ++other)
      if (other != rank && !by_rank[other].empty()) others.push_back(medians[other]);
    const uint64_t typical = median(others);
    if (by_rank[rank].empty() || typical == 0) continue;
    const double slower = 100.0 *
                          (static_cast<double>(medians[rank]) - static_cast<double>(typical)) /
                          static_cast<double>(typical);
    if (slower < context.limits["slow-rank-percent"]) continue;
    // Its time beyond the others' in each step: what the others waited.
    uint64_t cost = 0, slowest = 0;
    std::vector<std::pair<uint64_t, std::string>> worst;
    for (const StepTimes::Step &step : times.steps) {
      uint64_t mine = 0, max_other = 0;
      std::vector<uint64_t> rest;
      for (const auto &[r, ns] : step.times) {
        if (r == rank)
          mine = ns;
        else {
          rest.push_back(ns);
          max_other = std::max(max_other, ns);
        }
      }
      if (mine == 0 || rest.empty()) continue;
      const uint64_t usual = median(rest);
      slowest += mine > max_other;
      if (mine <= usual) continue;
      cost += mine - usual;
      worst.emplace_back(mine - usual, "step " + std::to_string(step.number) + ": " +
                                           format_duration(mine) + ", the others " +
                                           format_duration(usual));
    }
    std::stable_sort(worst.begin(), worst.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<std::string> evidence{"slowest rank in " + std::to_string(slowest) + " of " +
                                      count_of(times.steps.size(), "step", "steps")};
    for (size_t i = 0; i < worst.size() && i < 3; ++i)
      evidence.push_back(worst[i].second);
    context.add({"slow-rank", Severity::Low,
                 times.ranks[rank] + "'s median step took " + format_duration(medians[rank]) +
                     ", " + percent(slower) + " more than the other ranks' " +
                     format_duration(typical),
                 cost, std::move(evidence),
                 "compare that rank's step with another's (the steps report, its device and "
                 "host activity): an uneven share of data, a slower or shared device, or host "
                 "work only it does"});
  }
}

/// Processes whose communication never overlapped their devices' compute
/// (the overlap report's rows).
void overlap_rule(RuleContext &context) {
  const StatsTable table = build_report("overlap", context.aggregator, context.host, {});
  for (const Section &section : table.sections)
    for (size_t row = 0; row < section.rows.size(); ++row) {
      const std::string process = text(cell(table, section, row, "Process"));
      if (number(cell(table, section, row, "Devices")) == 0) continue; // nothing to overlap
      for (const bool device : {false, true}) {
        const std::string kind = device ? "Device" : "";
        const uint64_t total = number(cell(table, section, row, kind + "Communication(ns)"));
        const uint64_t overlapped = number(cell(table, section, row, kind + "Overlapped(ns)"));
        if (total == 0) continue;
        const double share = 100.0 * static_cast<double>(overlapped) / static_cast<double>(total);
        if (share >= context.limits["overlap-percent"]) continue;
        context.add(
            {"no-overlap",
             Severity::Low,
             process + "'s " + (device ? "communication on its devices" : "communication calls") +
                 " overlapped its devices' compute " + percent(share) +
                 " of the time: the compute waited for it",
             total - overlapped,
             {format_duration(total) + " communicating, " + format_duration(overlapped) +
                  " of it while computing",
              "the overlap and collectives reports break it down"},
             "start collectives as soon as their inputs are ready (gradient bucketing, "
             "asynchronous collectives) and compute meanwhile; run communication on its own "
             "stream"});
      }
    }
}

} // namespace

void rank_rules(RuleContext &context) {
  straggler_rule(context);
  slow_rank_rule(context);
  overlap_rule(context);
}

} // namespace prof::stats
