#include <prof/stats/stats_reports.hpp>

#include "clock_alignment_note.hpp"
#include "critical_path_report.hpp"
#include "device_memory_report.hpp"
#include "findings_report.hpp"
#include "hang_report.hpp"
#include "heap_report.hpp"
#include "operator_report.hpp"
#include "outliers_report.hpp"
#include "overlap_report.hpp"
#include "step_report.hpp"

#include <prof/stats/activity_rows.hpp>
#include <prof/stats/counter_name.hpp>
#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/rank_outliers.hpp>
#include <prof/stats/summary_tables.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace prof::stats {
namespace {

/// The summary's activity table columns; the Type column is console-only.
std::vector<Column> activity_columns() {
  return {{"Type", "Type", Align::Right, false}, {"Time(%)", "Time(%)", Align::Right},
          {"Time", "Time(ns)", Align::Right},    {"Calls", "Calls", Align::Right},
          {"Avg", "Avg(ns)", Align::Right},      {"Min", "Min(ns)", Align::Right},
          {"Max", "Max(ns)", Align::Right},      {"Name", "Name", Align::Left}};
}

/// Rows in format_activity_table()'s order and text: by total time, then
/// name; the group title on the first row only.
std::vector<std::vector<Cell>> activity_rows(const char *type, const NamedStats &stats) {
  std::vector<ActivityRow> sorted = to_rows(ActivityGroup::Device, stats).rows;
  sort_activity_rows(sorted);
  uint64_t total = 0;
  for (const auto &row : sorted)
    total += row.stats.total;
  std::vector<std::vector<Cell>> rows;
  for (const auto &[name, s] : sorted)
    rows.push_back({Cell::of_text(rows.empty() ? type : ""), Cell::of_percent(s.total, total),
                    Cell::of_ns(s.total), Cell::of_count(s.calls), Cell::of_ns(s.average()),
                    Cell::of_ns(s.calls == 0 ? 0 : s.min), Cell::of_ns(s.max),
                    Cell::of_text(name)});
  return rows;
}

StatsTable group_report(std::string_view name, ActivityGroup group, const std::string &noun,
                        const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{std::string(name), "", activity_columns(), {}, "", {}};
  table.empty_text = "======== " + noun + ": none in this report";
  const auto groups =
      activities_by_group(aggregator.summary(), host, [&](ActivityGroup g) { return g == group; });
  if (auto found = groups.find(group); found != groups.end())
    table.sections.push_back(
        {"", "======== " + noun + ":", activity_rows(group_title(group), found->second)});
  return table;
}

/// Device work by the process that owns its track (ExportHost::owner_process),
/// in label order: "no process" for work of none. Empty unless the work of
/// two processes or more is in the report: one process's is the whole.
std::vector<std::pair<std::string, NamedStats>>
device_work_by_process(const StatsAggregator &aggregator, const ExportHost &host,
                       bool kernels_only) {
  std::map<prof_track_id, std::string> labels;
  std::map<std::string, NamedStats> by_label;
  for (const auto &[key, stats] : aggregator.device_work()) {
    if (kernels_only && key.kind != PROF_CATEGORY_KERNEL) continue;
    auto label = labels.find(key.process);
    if (label == labels.end())
      label = labels
                  .emplace(key.process,
                           key.process == 0 ? "no process" : process_label(host, key.process))
                  .first;
    by_label[label->second][std::string(host.string(key.name))].merge(stats);
  }
  size_t owners = 0;
  for (const auto &[process, label] : labels)
    owners += process != 0;
  if (owners < 2) return {};
  std::vector<std::pair<std::string, NamedStats>> out(by_label.begin(), by_label.end());
  std::sort(out.begin(), out.end(),
            [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  return out;
}

/// Adds a section per process that owns device work (device_work_by_process)
/// after the table's section of all of it, whose label becomes "all".
void add_process_sections(StatsTable &table, const std::string &noun,
                          const std::vector<std::pair<std::string, NamedStats>> &by_process,
                          bool type_column) {
  if (by_process.empty() || table.sections.empty()) return;
  table.label_key = "Process";
  table.sections.front().label = "all";
  for (const auto &[label, stats] : by_process) {
    auto rows = activity_rows(type_column ? group_title(ActivityGroup::Device) : "", stats);
    if (!type_column)
      for (auto &row : rows)
        row.erase(row.begin());
    table.sections.push_back({label, "======== " + noun + " of " + label + ":", std::move(rows)});
  }
  table.notes.push_back("each process's part: the device work on the streams and queues it owns; "
                        "\"no process\": work on tracks no process owns");
}

/// Device tracks by label, so tables come out in name order.
template <class Map>
std::vector<std::pair<std::string, prof_track_id>> devices_by_label(const Map &devices,
                                                                    const ExportHost &host) {
  std::vector<std::pair<std::string, prof_track_id>> order;
  for (const auto &[device, value] : devices)
    order.emplace_back(device_label(host, device), device);
  std::sort(order.begin(), order.end(),
            [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  return order;
}

StatsTable per_device_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"gcu-activity-per-device", "Device", activity_columns(), {}, "", {}};
  table.empty_text = "======== GCU activities: none in this report";
  const auto devices = device_activities(aggregator.summary(), host);
  for (const auto &[label, device] : devices_by_label(devices, host))
    table.sections.push_back(
        {label, "======== GCU activities (" + label + "):",
         activity_rows(group_title(ActivityGroup::Device), devices.at(device))});
  return table;
}

/// Whether a category string is `source`'s: "python" or "python/DOMAIN".
bool category_of_source(std::string_view category, std::string_view source) {
  return category.starts_with(source) &&
         (category.size() == source.size() || category[source.size()] == '/');
}

/// The source part of a category string: "nvtx" of "nvtx/DOMAIN".
std::string_view source_of(std::string_view category) {
  return category.substr(0, category.find('/'));
}

// nsys's nvtx_sum: annotation slices by domain and name, the share of all of
// them and of the time of the threads they ran on. Those of `source`'s
// category strings ("python") only, or with `others` all but those, then in
// one section per category (its source part: "nvtx", "torch"), each share of
// its own section: the ranges of different sources nest in each other.
StatsTable annotation_report(std::string_view report, std::string_view title,
                             std::string_view source, bool others,
                             const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{std::string(report), others ? "Category" : "", activity_columns(), {}, "", {}};
  table.columns.erase(table.columns.begin()); // no Type column: one kind of row
  table.columns.insert(table.columns.end() - 1, {"Thread(%)", "Thread(%)", Align::Right});
  table.columns.insert(table.columns.end() - 1, {"Domain", "Domain", Align::Left});
  table.empty_text = "======== " + std::string(title) + ": none in this report";
  // By category, then resolved names, so equal names interned apart (merged
  // reports) are one row.
  using ByName = std::map<std::pair<std::string, std::string>, AnnotationStats>;
  std::map<std::string, ByName> by_category;
  for (const auto &[key, stats] : aggregator.annotations()) {
    const std::string_view category = host.string(key.category);
    if (category_of_source(category, source) == others) continue;
    by_category[others ? std::string(source_of(category)) : ""]
               [{key.domain == 0 ? "" : std::string(host.string(key.domain)),
                 std::string(host.string(key.name))}]
                   .merge(stats);
  }
  struct Row {
    const std::string *domain, *name;
    const AnnotationStats *stats;
  };
  for (const auto &[category, by_name] : by_category) {
    std::vector<Row> rows;
    uint64_t total = 0;
    for (const auto &[key, stats] : by_name) {
      rows.push_back({&key.first, &key.second, &stats});
      total += stats.durations.total;
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
      return a.stats->durations.total > b.stats->durations.total;
    });
    Section section{category,
                    "======== " + std::string(title) +
                        (category.empty() ? "" : " (" + category + ")") + ":",
                    {}};
    for (const Row &row : rows) {
      const DurationStats &s = row.stats->durations;
      uint64_t thread_time = 0;
      for (const auto &thread : row.stats->by_thread)
        if (auto span = aggregator.thread_spans().find(thread.first);
            span != aggregator.thread_spans().end())
          thread_time += span->second.length();
      const std::string &domain = *row.domain;
      section.rows.push_back({Cell::of_percent(s.total, total), Cell::of_ns(s.total),
                              Cell::of_count(s.calls), Cell::of_ns(s.average()), Cell::of_ns(s.min),
                              Cell::of_ns(s.max), Cell::of_percent(s.total, thread_time),
                              Cell::of_text(domain.empty() ? "-" : domain, domain),
                              Cell::of_text(*row.name)});
    }
    table.sections.push_back(std::move(section));
  }
  if (table.sections.empty()) return table;
  table.notes.push_back(
      "Time(%) is of the time of all " +
      std::string(others ? "annotation ranges of the same category" : title) +
      " in this report, as in nsys's nvtx_sum; Thread(%) of the time of the threads they ran on, "
      "each from its first event to its last; nested ranges each count in full");
  return table;
}

/// Why a report may list no copies although its device did copy.
void note_uncategorized(StatsTable &table, const StatsAggregator &aggregator) {
  const uint64_t n = aggregator.device_slices();
  if (n > 0 && aggregator.uncategorized_device_slices() == n)
    table.notes.push_back(
        std::to_string(n) +
        " device activities carry no category (a report written before plugin "
        "ABI 1.5, or a source that tags none): kernels and copies among them are not counted");
}

/// Device slices of one kind of work by name, time first: the kernels and
/// memcpy-time reports.
StatsTable time_by_name_report(std::string_view name, const std::string &noun,
                               const std::unordered_map<prof_string_id, DurationStats> &stats,
                               const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{std::string(name), "", activity_columns(), {}, "", {}};
  table.columns.erase(table.columns.begin()); // no Type column: one kind of row
  table.empty_text = "======== " + noun + ": none in this report";
  note_uncategorized(table, aggregator);
  NamedStats by_name;
  for (const auto &[id, s] : stats)
    by_name[std::string(host.string(id))].merge(s);
  if (by_name.empty()) return table;
  auto rows = activity_rows("", by_name);
  for (auto &row : rows)
    row.erase(row.begin());
  table.sections.push_back({"", "======== " + noun + ", time by name:", std::move(rows)});
  return table;
}

/// The row a copy's category goes to: its direction, "Memset", or "other"
/// for a copy whose source did not say which way it went.
std::string direction_of(uint16_t kind) {
  if (kind == PROF_CATEGORY_MEMSET) return "Memset";
  const std::string direction = copy_direction(kind);
  return direction.empty() ? "other" : direction;
}

// Sources give each copy's and set's size as its `bytes` argument.
StatsTable memcpy_size_report(const StatsAggregator &aggregator, const ExportHost &) {
  StatsTable table{"memcpy-size",
                   "",
                   {{"Direction", "Direction", Align::Left},
                    {"Count", "Count", Align::Right},
                    {"Total", "Total(B)", Align::Right},
                    {"Avg", "Avg(B)", Align::Right},
                    {"Min", "Min(B)", Align::Right},
                    {"Max", "Max(B)", Align::Right}},
                   {},
                   "======== Memory copy sizes: none in this report",
                   {}};
  note_uncategorized(table, aggregator);
  std::map<std::string, CounterStats> by_direction;
  for (const auto &[kind, stats] : aggregator.memcpy_bytes())
    by_direction[direction_of(kind)].merge(stats);
  if (by_direction.empty()) return table;
  Section section{"", "======== Memory copies by direction, bytes:", {}};
  for (const auto &[direction, s] : by_direction)
    section.rows.push_back(
        {Cell::of_text(direction), Cell::of_count(s.samples),
         Cell::of_count(static_cast<uint64_t>(s.sum)),
         Cell::of_count(static_cast<uint64_t>(s.sum / static_cast<double>(s.samples))),
         Cell::of_count(static_cast<uint64_t>(s.min)),
         Cell::of_count(static_cast<uint64_t>(s.max))});
  table.sections.push_back(std::move(section));
  return table;
}

StatsTable counters_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"counters",
                   "",
                   {{"Min", "Min", Align::Right},
                    {"Avg", "Avg", Align::Right},
                    {"Max", "Max", Align::Right},
                    {"Unit", "Unit", Align::Left},
                    {"Name", "Name", Align::Left}},
                   {},
                   "======== Counters: none in this report",
                   {}};
  std::vector<CounterRow> counters;
  for (const auto &[track, stats] : aggregator.summary().counters()) {
    const prof_track_desc *desc = host.track(track);
    counters.push_back({counter_name(host, track),
                        desc && desc->unit ? std::string(desc->unit) : std::string(), stats});
  }
  if (counters.empty()) return table;
  std::sort(counters.begin(), counters.end(),
            [](const auto &a, const auto &b) { return natural_less(a.name, b.name); });
  Section section{"", "======== Counters:", {}};
  for (const auto &row : counters) {
    const auto value = [&](double v) {
      return Cell::of_real(v, format_counter_value(v, row.unit));
    };
    section.rows.push_back({value(row.stats.min), value(row.stats.average()), value(row.stats.max),
                            Cell::of_text(row.unit.empty() ? "-" : row.unit, row.unit),
                            Cell::of_text(row.name)});
  }
  table.sections.push_back(std::move(section));
  return table;
}

StatsTable utilization_report(StatsAggregator &aggregator, const ExportHost &host,
                              const ReportOptions &options) {
  StatsTable table{"device-utilization",
                   "Device",
                   {{"Start", "Start(ns)", Align::Right},
                    {"End", "End(ns)", Align::Right},
                    {"Busy", "Busy(ns)", Align::Right},
                    {"Busy(%)", "Busy(%)", Align::Right}},
                   {},
                   "======== Device utilization: no device activities in this report",
                   {}};
  const uint64_t origin = aggregator.first_ts();
  const uint64_t until = aggregator.last_ts();
  const std::string interval = format_duration(options.interval_ns);
  for (const auto &[label, device] : devices_by_label(aggregator.timelines(), host)) {
    Section section{
        label, "======== Device utilization (" + label + ", " + interval + " windows):", {}};
    for (const WindowBusy &w :
         aggregator.timelines().at(device).utilization(origin, until, options.interval_ns))
      section.rows.push_back({Cell::of_ns(w.begin - origin), Cell::of_ns(w.end - origin),
                              Cell::of_ns(w.busy), Cell::of_percent(w.busy, w.end - w.begin)});
    table.sections.push_back(std::move(section));
  }
  if (!table.sections.empty())
    table.notes.push_back("times count from the report's first event; the union of each "
                          "device's slices is busy");
  return table;
}

StatsTable gaps_report(StatsAggregator &aggregator, const ExportHost &host,
                       const ReportOptions &options) {
  StatsTable table{"device-gaps",
                   "Device",
                   {{"Start", "Start(ns)", Align::Right},
                    {"End", "End(ns)", Align::Right},
                    {"Duration", "Duration(ns)", Align::Right}},
                   {},
                   "======== Device gaps: no device activities in this report",
                   {}};
  const uint64_t origin = aggregator.first_ts();
  const std::string threshold = format_duration(options.gap_threshold_ns);
  for (const auto &[label, device] : devices_by_label(aggregator.timelines(), host)) {
    Section section{label, "======== Device gaps (" + label + ", over " + threshold + "):", {}};
    uint64_t idle = 0;
    for (const Period &gap : aggregator.timelines().at(device).gaps(options.gap_threshold_ns)) {
      section.rows.push_back({Cell::of_ns(gap.begin - origin), Cell::of_ns(gap.end - origin),
                              Cell::of_ns(gap.end - gap.begin)});
      idle += gap.end - gap.begin;
    }
    table.notes.push_back(label + ": " + std::to_string(section.rows.size()) + " gaps over " +
                          threshold + ", " + format_duration(idle) + " in all");
    if (!section.rows.empty()) table.sections.push_back(std::move(section));
  }
  if (!table.notes.empty()) {
    table.notes.push_back("times count from the report's first event");
    if (table.sections.empty())
      table.empty_text = "======== Device gaps (over " + threshold + "): none on any device";
  }
  return table;
}

StatsTable functions_report(const StatsAggregator &aggregator, const ExportHost &host) {
  const FunctionView &view = aggregator.functions();
  StatsTable table{"cpu-functions",
                   "",
                   {{"Self(%)", "Self(%)", Align::Right},
                    {"Self", "Self", Align::Right},
                    {"Total(%)", "Total(%)", Align::Right},
                    {"Total", "Total", Align::Right},
                    {"Function", "Function", Align::Left}},
                   {},
                   "======== CPU functions: no CPU samples in this report",
                   {}};
  if (view.samples() == 0) return table;
  const auto resolve = [&host](prof_stack_id id) {
    std::vector<std::string> names;
    const auto [frames, count] = host.stack(id);
    for (uint32_t i = 0; i < count; ++i)
      names.emplace_back(host.string(frames[i]));
    return names;
  };
  Section section{
      "", "======== CPU functions (" + std::to_string(view.samples()) + " samples):", {}};
  for (const auto &f : view.flat_rows(resolve, SIZE_MAX))
    section.rows.push_back({Cell::of_percent(f.self, view.samples()), Cell::of_count(f.self),
                            Cell::of_percent(f.total, view.samples()), Cell::of_count(f.total),
                            Cell::of_text(f.name)});
  table.sections.push_back(std::move(section));
  return table;
}

// Communication calls per communicator, then by name and process (in a
// merged report, a rank): what each rank spent in each call and moved, and
// the algorithm bandwidth (bytes over time, as nccl-tests' algbw).
StatsTable collectives_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"collectives", "Communicator", {}, {}, "", {}};
  table.columns = {{"Name", "Name", Align::Left},         {"Process", "Process", Align::Left},
                   {"Calls", "Calls", Align::Right},      {"Bytes", "Bytes", Align::Right},
                   {"Time", "Time(ns)", Align::Right},    {"Avg", "Avg(ns)", Align::Right},
                   {"Min", "Min(ns)", Align::Right},      {"Max", "Max(ns)", Align::Right},
                   {"AlgBW", "AlgBW(GB/s)", Align::Right}};
  table.empty_text = "======== Communication: none in this report";
  const auto text_of = [&host](prof_string_id id) { return std::string(host.string(id)); };
  // By resolved texts: equal names interned apart (merged reports) are one row.
  struct Row {
    std::string name, process;
    CommunicationStats stats;
  };
  std::map<std::string, std::vector<Row>> by_communicator;
  std::map<std::tuple<std::string, std::string, std::string>, CommunicationStats> merged;
  for (const auto &[key, stats] : aggregator.communication())
    merged[{key.communicator == 0 ? "no communicator" : text_of(key.communicator),
            text_of(key.name), process_label(host, key.process)}]
        .merge(stats);
  for (const auto &[key, stats] : merged)
    by_communicator[std::get<0>(key)].push_back({std::get<1>(key), std::get<2>(key), stats});
  std::vector<std::string> communicators;
  for (const auto &[communicator, rows] : by_communicator)
    communicators.push_back(communicator);
  std::sort(communicators.begin(), communicators.end(), natural_less);
  for (const std::string &communicator : communicators) {
    std::vector<Row> &rows = by_communicator[communicator];
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
      return a.name != b.name ? natural_less(a.name, b.name) : natural_less(a.process, b.process);
    });
    Section section{communicator, "======== Communication (" + communicator + "):", {}};
    for (const Row &row : rows) {
      const DurationStats &s = row.stats.durations;
      const bool has_bytes = row.stats.with_bytes > 0;
      char bandwidth[32] = "-";
      double gbps = 0;
      if (has_bytes && s.total > 0) {
        gbps = static_cast<double>(row.stats.bytes) / static_cast<double>(s.total);
        std::snprintf(bandwidth, sizeof bandwidth, "%.3f", gbps);
      }
      section.rows.push_back(
          {Cell::of_text(row.name), Cell::of_text(row.process), Cell::of_count(s.calls),
           has_bytes ? Cell::of_count(row.stats.bytes) : Cell::of_text("-", ""),
           Cell::of_ns(s.total), Cell::of_ns(s.average()), Cell::of_ns(s.calls == 0 ? 0 : s.min),
           Cell::of_ns(s.max), Cell::of_real(gbps, bandwidth)});
    }
    table.sections.push_back(std::move(section));
  }
  return table;
}

// Each collective operation is the calls of one communicator and sequence
// number on different ranks (in a merged report, processes). Its skew is
// how much later the last rank arrived than the first; that rank is late by
// the skew. Per communicator, by name and rank: how many operations, how
// often the rank came last and how late, and the skew of all.
/// An operation whose last rank came this long after its first is named in
/// the stragglers report's notes, up to kLateOperationsShown per name.
constexpr uint64_t kLateOperationNs = 1'000'000;
constexpr size_t kLateOperationsShown = 10;
/// Up to this many ranks take part in a name's operations, each has a row.
constexpr size_t kStragglerRowsAlways = 32;
/// Up to this many communicators, each has a section.
constexpr size_t kStragglerSectionsAlways = 16;

StatsTable stragglers_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"stragglers", "Communicator", {}, {}, "", {}};
  table.columns = {{"Name", "Name", Align::Left},
                   {"Process", "Process", Align::Left},
                   {"Ops", "Operations", Align::Right},
                   {"Last", "Last", Align::Right},
                   {"LateAvg", "LateAvg(ns)", Align::Right},
                   {"LateMax", "LateMax(ns)", Align::Right},
                   {"SkewAvg", "SkewAvg(ns)", Align::Right},
                   {"SkewMax", "SkewMax(ns)", Align::Right}};
  table.empty_text = "======== Stragglers: no collective operation in two processes or more";
  const auto text_of = [&host](prof_string_id id) { return std::string(host.string(id)); };
  // Operations: (communicator, sequence) -> the calls of each process.
  std::map<std::pair<std::string, uint64_t>, std::vector<const CollectiveCall *>> operations;
  for (const CollectiveCall &call : aggregator.collective_calls())
    operations[{text_of(call.communicator), call.sequence}].push_back(&call);
  struct LateOperation {
    uint64_t skew, sequence;
    std::string last;
  };
  struct PerName {
    uint64_t operations = 0, skew_total = 0, skew_max = 0;
    std::map<std::string, std::pair<uint64_t, DurationStats>> by_process; // last count, lateness
    std::vector<LateOperation> late;
  };
  std::map<std::string, std::map<std::string, PerName>> by_communicator;
  for (const auto &[key, calls] : operations) {
    std::map<prof_track_id, const CollectiveCall *> first_per_process;
    for (const CollectiveCall *call : calls)
      first_per_process.emplace(call->process, call);
    if (first_per_process.size() < 2) continue;
    uint64_t earliest = UINT64_MAX, latest = 0;
    const CollectiveCall *last = nullptr;
    for (const auto &[process, call] : first_per_process) {
      earliest = std::min(earliest, call->begin);
      if (last == nullptr || call->begin > latest) {
        latest = call->begin;
        last = call;
      }
    }
    const uint64_t skew = latest - earliest;
    PerName &stats = by_communicator[key.first][text_of(last->name)];
    ++stats.operations;
    stats.skew_total += skew;
    stats.skew_max = std::max(stats.skew_max, skew);
    for (const auto &[process, call] : first_per_process) {
      const std::string label = process_label(host, process);
      auto &[times_last, lateness] = stats.by_process[label];
      if (call == last) {
        ++times_last;
        lateness.add(skew);
        if (skew >= kLateOperationNs) stats.late.push_back({skew, key.second, label});
      }
    }
  }
  std::vector<std::string> communicators;
  for (const auto &[communicator, names] : by_communicator)
    communicators.push_back(communicator);
  std::sort(communicators.begin(), communicators.end(), natural_less);
  size_t left_out = 0, quiet_communicators = 0;
  const bool many_communicators = communicators.size() > kStragglerSectionsAlways;
  for (const std::string &communicator : communicators) {
    if (many_communicators) {
      uint64_t skew_max = 0;
      for (const auto &[name, stats] : by_communicator[communicator])
        skew_max = std::max(skew_max, stats.skew_max);
      if (skew_max < kLateOperationNs) {
        ++quiet_communicators;
        continue;
      }
    }
    Section section{communicator, "======== Stragglers (" + communicator + "):", {}};
    for (const auto &[name, stats] : by_communicator[communicator]) {
      // Among many ranks, those never last by a margin are left out.
      const bool many = stats.by_process.size() > kStragglerRowsAlways;
      std::vector<std::string> processes;
      for (const auto &[process, value] : stats.by_process) {
        if (many && value.second.max < kLateOperationNs) {
          ++left_out;
          continue;
        }
        processes.push_back(process);
      }
      std::sort(processes.begin(), processes.end(), natural_less);
      for (const std::string &process : processes) {
        const auto &[times_last, lateness] = stats.by_process.at(process);
        section.rows.push_back(
            {Cell::of_text(name), Cell::of_text(process), Cell::of_count(stats.operations),
             Cell::of_count(times_last),
             times_last ? Cell::of_ns(lateness.average()) : Cell::of_text("-", ""),
             times_last ? Cell::of_ns(lateness.max) : Cell::of_text("-", ""),
             Cell::of_ns(stats.skew_total / stats.operations), Cell::of_ns(stats.skew_max)});
      }
    }
    table.sections.push_back(std::move(section));
  }
  if (quiet_communicators > 0)
    table.notes.push_back("left out of the table: " + std::to_string(quiet_communicators) +
                          " communicators whose operations no rank held up " +
                          format_duration(kLateOperationNs) + " or more (of " +
                          std::to_string(communicators.size()) + ")");
  if (left_out > 0)
    table.notes.push_back("left out of the table: " + std::to_string(left_out) +
                          " rows of ranks never last by " + format_duration(kLateOperationNs) +
                          " or more (each name's rows are kept whole up to " +
                          std::to_string(kStragglerRowsAlways) + " ranks)");
  // The ranks late together, by node where a node's ranks are (find_late_ranks).
  for (const OutlierFinding &late : find_late_ranks(aggregator, host).findings)
    table.notes.push_back("late ranks: " + late.text);
  // The operations one rank held up longest, each named: the latest
  // kLateOperationsShown of each name, in their order on the communicator.
  for (const std::string &communicator : communicators)
    for (auto &[name, stats] : by_communicator[communicator]) {
      std::vector<LateOperation> &late = stats.late;
      std::sort(late.begin(), late.end(), [](const LateOperation &a, const LateOperation &b) {
        return a.skew != b.skew ? a.skew > b.skew : a.sequence < b.sequence;
      });
      if (late.size() > kLateOperationsShown) late.resize(kLateOperationsShown);
      std::sort(late.begin(), late.end(), [](const LateOperation &a, const LateOperation &b) {
        return a.sequence < b.sequence;
      });
      for (const LateOperation &op : late)
        table.notes.push_back("late: " + communicator + " " + name + " #" +
                              std::to_string(op.sequence) + ": " + op.last + " last, " +
                              format_duration(op.skew) + " after the first");
    }
  return table;
}

/// How a report uses the devices' busy timelines.
enum class Timelines {
  none,
  exact, ///< busy periods as they are (utilization, overlap, idle)
  joined ///< periods closer than --gap-threshold joined (gaps alone)
};

/// One report: what --help-reports says of it, what the scan must keep for
/// it, and how it is built.
struct ReportEntry {
  ReportInfo info;
  void (*needs)(StatsScope &scope, const ReportOptions &options);
  Timelines timelines;
  StatsTable (*build)(std::string_view name, StatsAggregator &aggregator, const ExportHost &host,
                      const ReportOptions &options);
};

void needs_nothing(StatsScope &, const ReportOptions &) {}

/// Every report, in the order --help-reports lists them.
const ReportEntry kReports[] = {
    {{"gcu-activity", "device activities by name, all devices together (the summary's GCU rows)",
      true},
     [](StatsScope &scope, const ReportOptions &) { scope.device_work = true; },
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       StatsTable table = group_report(name, ActivityGroup::Device, "GCU activities", a, h);
       add_process_sections(table, "GCU activities", device_work_by_process(a, h, false), true);
       return table;
     }},
    {{"gcu-activity-per-device", "device activities by name, one table per device", false},
     needs_nothing,
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return per_device_report(a, h);
     }},
    {{"api", "API calls (host slices of the runtime-api and driver-api categories) by name", true},
     needs_nothing,
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return group_report(name, ActivityGroup::Api, "API calls", a, h);
     }},
    {{"osrt", "OS runtime calls (host slices of category \"osrt\") by name", true},
     needs_nothing,
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return group_report(name, ActivityGroup::OsRuntime, "OS runtime", a, h);
     }},
    {{"ranges", "annotation ranges (host slices of other categories) by name", true},
     needs_nothing,
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return group_report(name, ActivityGroup::Ranges, "Ranges", a, h);
     }},
    {{"nvtx",
      "annotation ranges (slices of the annotation category but traced Python functions) by "
      "category, name and domain, as nsys's nvtx_sum",
      true},
     [](StatsScope &scope, const ReportOptions &) { scope.annotations = true; },
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return annotation_report(name, "Annotation ranges", "python", true, a, h);
     }},
    {{"python-functions",
      "traced Python functions (--python-functions-trace) by qualified name and domain", true},
     [](StatsScope &scope, const ReportOptions &) { scope.annotations = true; },
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return annotation_report(name, "Python functions", "python", false, a, h);
     }},
    {{"torch-ops",
      "framework operators (PyTorch's aten::mm, AddmmBackward0) by name, forward and backward "
      "apart, as key_averages() shows them: calls, self and total time; --group-by shapes adds "
      "their input shapes",
      true},
     [](StatsScope &scope, const ReportOptions &options) {
       scope.operators = true;
       scope.operator_shapes = options.group_by == OperatorGrouping::Shapes;
     },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &options) {
       return operator_report(a, h, options);
     }},
    {{"kernels", "device kernels (slices of the kernel category) by name, all devices together",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.kernels = scope.device_work = true; },
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       StatsTable table = time_by_name_report(name, "Kernels", a.kernels(), a, h);
       add_process_sections(table, "Kernels", device_work_by_process(a, h, true), false);
       return table;
     }},
    {{"memcpy-time", "memory copies and sets on devices, time by name", false},
     [](StatsScope &scope, const ReportOptions &) { scope.memcpy = true; },
     Timelines::none,
     [](std::string_view name, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return time_by_name_report(name, "Memory copies", a.memcpy(), a, h);
     }},
    {{"memcpy-size", "bytes of memory copies and sets on devices, by direction", false},
     [](StatsScope &scope, const ReportOptions &) { scope.memcpy = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return memcpy_size_report(a, h);
     }},
    {{"device-memory",
      "device memory: each device's peak, the blocks live at it, and blocks never freed (leaks)",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.device_memory = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return device_memory_report(a, h);
     }},
    {{"memory",
      "the heap of each process (--memory-profile): its peak and the call sites holding memory "
      "then, the blocks live at exit (leaks) by call site, allocations by size",
      true},
     [](StatsScope &scope, const ReportOptions &) { scope.heap = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return heap_report(a, h);
     }},
    {{"counters", "counter tracks: min, average and max", true},
     needs_nothing,
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return counters_report(a, h);
     }},
    {{"device-utilization", "busy percent of each device in windows of --interval MS", false},
     needs_nothing,
     Timelines::exact,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &options) {
       return utilization_report(a, h, options);
     }},
    {{"device-gaps", "idle gaps longer than --gap-threshold US on each device", false},
     needs_nothing,
     Timelines::joined,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &options) {
       return gaps_report(a, h, options);
     }},
    {{"cpu-functions", "CPU functions by self and total samples, where samples exist", true},
     [](StatsScope &scope, const ReportOptions &) { scope.functions = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return functions_report(a, h);
     }},
    {{"collectives",
      "communication calls (MPI, collective libraries) per communicator, name and process: "
      "calls, bytes, time and algorithm bandwidth",
      true},
     [](StatsScope &scope, const ReportOptions &) { scope.communication = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return collectives_report(a, h);
     }},
    {{"stragglers",
      "collective operations matched across ranks (communicator and sequence): arrival skew, "
      "how often and how late each rank came last (beyond 32 ranks, those last by 1 ms or more), "
      "the ranks late together (by node) and the operations held up 1 ms or more",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.collectives = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return stragglers_report(a, h);
     }},
    {{"outliers",
      "the ranks and nodes that differ from the rest (by step time, lateness at collectives, "
      "communication, operator and kernel time, memory peak), by how much and in what, and the "
      "typical rank to compare with",
      false},
     [](StatsScope &scope, const ReportOptions &) { rank_outliers_scope(scope); },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return outliers_report(a, h);
     }},
    {{"overlap",
      "per process (rank): time in communication calls, and how much of it its devices computed "
      "through",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.overlap = true; },
     Timelines::exact,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return overlap_report(a, h);
     }},
    {{"idle",
      "per device: idle time within its busy span, split into communication (its process in "
      "communication calls), launch gaps (under 10 us) and host (the device waited for work)",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.overlap = true; },
     Timelines::exact,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return idle_report(a, h);
     }},
    {{"hang",
      "over flight-recorder dumps: per communicator, the last operation each rank entered and "
      "completed and the ranks the others wait for; the slices open at the dumps and each "
      "thread's latest CPU sample",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.collectives = scope.open_work = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &) {
       return hang_report(a, h);
     }},
    {{"steps",
      "training steps (annotation ranges with a \"step\" argument) on each rank (process): each "
      "rank's time, the slowest rank and the spread of each step",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.steps = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &options) {
       return step_report(a, h, options.critical_paths);
     }},
    {{"critical-path",
      "the critical path of the slowest steps (and --step N) across ranks: what each step waited "
      "for, by kind of work, the rank that came late to a collective and the time without it",
      false},
     [](StatsScope &scope, const ReportOptions &) { scope.steps = true; },
     Timelines::none,
     [](std::string_view, StatsAggregator &, const ExportHost &h, const ReportOptions &options) {
       return critical_path_report(
           options.critical_paths ? *options.critical_paths : std::vector<CriticalPath>{}, h);
     }},
    {{"findings",
      "what is worth fixing, by rule (docs/findings.md): what was seen, the time it costs, the "
      "evidence and what to try",
      false},
     [](StatsScope &scope, const ReportOptions &) { findings_scope(scope); },
     Timelines::exact,
     [](std::string_view, StatsAggregator &a, const ExportHost &h, const ReportOptions &options) {
       return findings_report(a, h, options);
     }},
};

const ReportEntry *find_entry(std::string_view name) {
  for (const ReportEntry &entry : kReports)
    if (name == entry.info.name) return &entry;
  return nullptr;
}

} // namespace

const std::vector<ReportInfo> &known_reports() {
  static const std::vector<ReportInfo> infos = [] {
    std::vector<ReportInfo> all;
    for (const ReportEntry &entry : kReports)
      all.push_back(entry.info);
    return all;
  }();
  return infos;
}

const ReportInfo *find_report(std::string_view name) {
  const ReportEntry *entry = find_entry(name);
  return entry ? &entry->info : nullptr;
}

std::string help_reports_text() {
  size_t width = 0;
  for (const ReportEntry &entry : kReports)
    width = std::max(width, std::string_view(entry.info.name).size());
  std::string text = "Reports of prof stats (--report NAME,NAME,...; without it, those marked * "
                     "that have data):\n";
  for (const ReportEntry &entry : kReports) {
    std::string line = std::string(entry.info.by_default ? "* " : "  ") + entry.info.name;
    line.resize(width + 4, ' ');
    text += line + entry.info.description + "\n";
  }
  return text;
}

StatsScope scope_for(const std::vector<std::string> &reports, const ReportOptions &options) {
  StatsScope scope;
  bool exact = false, joined = false;
  for (const std::string &name : reports) {
    const ReportEntry *entry = find_entry(name);
    if (entry == nullptr) continue;
    entry->needs(scope, options);
    exact |= entry->timelines == Timelines::exact;
    joined |= entry->timelines == Timelines::joined;
  }
  scope.timelines = exact || joined;
  // Gaps alone need no period shorter than the threshold apart.
  scope.timeline_join_gap = joined && !exact ? options.gap_threshold_ns : 0;
  return scope;
}

bool needs_critical_paths(const std::vector<std::string> &reports) {
  return std::find(reports.begin(), reports.end(), "critical-path") != reports.end() ||
         std::find(reports.begin(), reports.end(), "steps") != reports.end();
}

StatsTable build_report(std::string_view name, StatsAggregator &aggregator, const ExportHost &host,
                        const ReportOptions &options) {
  const ReportEntry *entry = find_entry(name);
  if (entry == nullptr) return StatsTable{std::string(name), "", {}, {}, "", {}};
  StatsTable table = entry->build(name, aggregator, host, options);
  // The reports that set ranks' times against each other say when those
  // times come from clocks aligned on collective operations.
  static constexpr std::string_view kAcrossRanks[] = {
      "steps", "stragglers", "outliers", "collectives", "overlap", "idle", "critical-path"};
  if (table.row_count() > 0 &&
      std::find(std::begin(kAcrossRanks), std::end(kAcrossRanks), name) != std::end(kAcrossRanks))
    if (std::string clocks = clock_alignment_note(host); !clocks.empty())
      table.notes.push_back(std::move(clocks));
  return table;
}

} // namespace prof::stats
