#include "summary_exporter.hpp"

#include <prof/declared_options.hpp>
#include <prof/drop_causes.hpp>
#include <prof/stats/activity_rows.hpp>
#include <prof/stats/counter_name.hpp>
#include <prof/stats/findings.hpp>
#include <prof/stats/stats_reports.hpp>
#include <prof/stats/summary_tables.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

namespace prof::summary {
namespace {

constexpr const char *kResultTitle = "======== Profiling result:";

/// Whether `mode` prints the report tables, the counters and the findings.
bool full_summary(SummaryMode mode) {
  return mode == SummaryMode::Summary || mode == SummaryMode::PerGcu;
}

// What the tables need, and in a full summary the findings (a line each).
stats::StatsScope summary_scope(SummaryMode mode) {
  stats::StatsScope scope =
      full_summary(mode) ? stats::scope_for({"findings"}, {}) : stats::StatsScope{};
  // A capture's summary keeps nothing per operation, however long it runs:
  // the rules on collectives and on their overlap with compute (a record a
  // call, a busy period a kernel) are left to prof stats --report findings.
  scope.collectives = false;
  scope.overlap = false;
  scope.functions = true;
  scope.annotations = true;
  scope.heap = true;
  return scope;
}

const char *empty_noun(SummaryMode mode) {
  switch (mode) {
  case SummaryMode::Gcu:
    return "GCU activities";
  case SummaryMode::Api:
    return "API calls";
  default:
    return "activities";
  }
}

} // namespace

std::optional<SummaryMode> parse_summary_mode(std::string_view text) {
  if (text == "summary") return SummaryMode::Summary;
  if (text == "gcu") return SummaryMode::Gcu;
  if (text == "per-gcu") return SummaryMode::PerGcu;
  if (text == "api") return SummaryMode::Api;
  return std::nullopt;
}

bool SummaryExporter::begin() {
  const std::string_view text = DeclaredOptions(host_, kOptions).text("mode");
  const auto mode = parse_summary_mode(text);
  if (!mode) {
    host_.log(PROF_LOG_ERROR, "summary: unknown mode '" + std::string(text) +
                                  "' (choose summary, gcu, per-gcu or api)");
    return false;
  }
  mode_ = *mode;
  aggregator_.emplace(host_, summary_scope(mode_));
  return true;
}

bool SummaryExporter::consume(const prof_event *events, size_t count) {
  if (!aggregator_) aggregator_.emplace(host_, summary_scope(mode_));
  aggregator_->add(events, count);
  return true;
}

bool SummaryExporter::end() {
  if (!aggregator_) aggregator_.emplace(host_, summary_scope(mode_));
  if (aggregator_->summary().events_seen() == 0) {
    host_.print("======== Profiling result: no events were collected");
  } else {
    print_activities();
    if (full_summary(mode_)) {
      print_report_tables();
      print_counters();
      print_functions();
      print_findings();
    }
  }
  for (const std::string &line : drop_warnings(host_)) // every loss, by cause
    host_.print(line);
  aggregator_.reset();
  return true;
}

void SummaryExporter::print_activities() {
  const bool split_devices = mode_ == SummaryMode::PerGcu;
  // Rows keyed by resolved name, so equal names merge even when they were
  // interned apart (e.g. in merged reports).
  const auto host_groups =
      stats::activities_by_group(aggregator_->summary(), host_, [&](stats::ActivityGroup group) {
        if (mode_ == SummaryMode::Gcu) return group == stats::ActivityGroup::Device;
        if (mode_ == SummaryMode::Api) return group == stats::ActivityGroup::Api;
        return !(split_devices && group == stats::ActivityGroup::Device);
      });
  auto devices = split_devices ? stats::device_activities(aggregator_->summary(), host_)
                               : std::map<prof_track_id, stats::NamedStats>();

  bool printed = false;
  if (split_devices) {
    std::vector<std::pair<std::string, prof_track_id>> order;
    order.reserve(devices.size());
    for (const auto &[device, by_name] : devices)
      order.emplace_back(stats::device_label(host_, device), device);
    std::sort(order.begin(), order.end());
    for (const auto &[label, device] : order) {
      print_section("======== Profiling result (" + label + "):",
                    stats::format_activity_table(
                        {stats::to_rows(stats::ActivityGroup::Device, devices[device])}));
      printed = true;
    }
  }
  std::vector<stats::ActivityGroupRows> groups;
  groups.reserve(host_groups.size());
  for (const auto &[group, by_name] : host_groups)
    groups.push_back(stats::to_rows(group, by_name));
  if (!groups.empty()) {
    print_section(split_devices ? "======== Profiling result (host):" : kResultTitle,
                  stats::format_activity_table(std::move(groups)));
    printed = true;
  }
  const bool counters_follow = (mode_ == SummaryMode::Summary || mode_ == SummaryMode::PerGcu) &&
                               !aggregator_->summary().counters().empty();
  if (!printed && !counters_follow) {
    host_.print(std::string(kResultTitle) + " no " + empty_noun(mode_) + " were collected");
  }
}

void SummaryExporter::print_counters() {
  std::vector<stats::CounterRow> rows;
  for (const auto &[track, values] : aggregator_->summary().counters()) {
    const prof_track_desc *desc = host_.track(track);
    stats::CounterRow row{stats::counter_name(host_, track), "", values};
    if (desc != nullptr && desc->unit != nullptr) row.unit = desc->unit;
    rows.push_back(std::move(row));
  }
  print_section("======== Counters:", stats::format_counter_table(std::move(rows)));
}

// The ranges as `prof stats --report nvtx` and `--report python-functions`
// show them, and the heap as `--report memory` does, each when there are any;
// the heap's sections cut to their largest rows (a process tree's many
// processes each have five), the rest left to `prof stats`.
void SummaryExporter::print_report_tables() {
  constexpr size_t kHeapRows = 10;
  for (const std::string_view report : {"nvtx", "python-functions", "memory"}) {
    stats::StatsTable table = stats::build_report(report, *aggregator_, host_, {});
    if (table.row_count() == 0) continue;
    size_t left_out = 0;
    for (stats::Section &section : table.sections) {
      if (report != "memory" || section.rows.size() <= kHeapRows) continue;
      left_out += section.rows.size() - kHeapRows;
      section.rows.resize(kHeapRows);
    }
    if (left_out > 0)
      table.notes.insert(table.notes.begin(),
                         std::to_string(left_out) + " more rows (the " + std::to_string(kHeapRows) +
                             " largest of each part are above): prof stats --report memory "
                             "shows them all.");
    std::string text = stats::render_table({table});
    for (size_t begin = 0, end; begin < text.size(); begin = end + 1) {
      end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      host_.print(text.substr(begin, end - begin));
    }
  }
}

void SummaryExporter::print_functions() {
  const stats::FunctionView &functions = aggregator_->functions();
  const DeclaredOptions declared(host_, kOptions);
  const std::string_view which = declared.text("functions");
  if (functions.samples() == 0 || which == "none") return;
  const auto resolve = [this](prof_stack_id id) {
    std::vector<std::string> names;
    const auto [frames, count] = host_.stack(id);
    for (uint32_t i = 0; i < count; ++i)
      names.emplace_back(host_.string(frames[i]));
    return names;
  };
  const std::string samples = std::to_string(functions.samples()) + " samples";
  const auto rows = static_cast<size_t>(declared.integer("function-rows"));
  const double min_percent = declared.real("tree-min-percent");
  const std::string pruned = " (" + samples + ", nodes under " +
                             std::string(declared.text("tree-min-percent")) + "% left out):";
  if (which == "all" || which == "flat")
    print_section("======== CPU functions (" + samples + "):", functions.flat_table(resolve, rows));
  if (which == "all" || which == "top-down")
    print_section("======== CPU call tree, top-down" + pruned,
                  functions.call_tree(resolve, true, min_percent));
  if (which == "all" || which == "bottom-up")
    print_section("======== CPU call tree, bottom-up" + pruned,
                  functions.call_tree(resolve, false, min_percent));
}

// A line per finding, the evidence and advice left to `prof stats`.
void SummaryExporter::print_findings() {
  const stats::FindingsResult result =
      stats::find_findings(*aggregator_, host_, stats::FindingLimits());
  if (result.findings.empty()) return;
  host_.print("======== Findings (evidence and what to try: prof stats --report findings "
              "REPORT, docs/findings.md):");
  for (const stats::Finding &finding : result.findings)
    host_.print(std::string(stats::severity_name(finding.severity)) + " " + finding.rule + ": " +
                finding.seen +
                (finding.cost_ns > 0 ? " (" + stats::format_duration(finding.cost_ns) + ")" : ""));
}

void SummaryExporter::print_section(const std::string &title,
                                    const std::vector<std::string> &table) {
  if (table.empty()) return;
  host_.print(title);
  for (const std::string &line : table)
    host_.print(line);
}

} // namespace prof::summary
