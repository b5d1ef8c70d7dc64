#include "heap_report.hpp"

#include <prof/stats/process_label.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <map>
#include <string_view>

namespace prof::stats {
namespace {

uint64_t uint_arg(const ExportHost &host, const prof_event &e, std::string_view key) {
  for (const prof_arg &a : host.args(e.args))
    if (host.string(a.key) == key) {
      if (a.type == PROF_ARG_UINT) return a.value.u;
      if (a.type == PROF_ARG_INT && a.value.i > 0) return static_cast<uint64_t>(a.value.i);
    }
  return 0;
}

prof_stack_id stack_arg(const ExportHost &host, const prof_event &e) {
  for (const prof_arg &a : host.args(e.args))
    if (a.type == PROF_ARG_STACK) return static_cast<prof_stack_id>(a.value.u);
  return 0;
}

struct SiteRow {
  std::string site;
  uint64_t bytes = 0, blocks = 0;
  uint64_t error = 0;     ///< a sampled stack's two standard errors
  std::string full_stack; ///< a sampled stack's every frame (CSV, JSON)
};

struct ProcessHeap {
  const prof_event *totals = nullptr, *peak = nullptr, *peak_sites = nullptr;
  std::vector<SiteRow> at_peak, leaks, sizes, stacks_at_peak, leak_stacks;
  std::vector<SiteRow> prof_live; ///< prof's own blocks still live: no leak of the program
};

// The frames of a sampled stack, leaf first: the first kShownFrames on the
// console, every one in the data.
constexpr uint32_t kShownFrames = 12;
SiteRow stack_row(const ExportHost &host, const prof_event &e) {
  SiteRow row{{},
              uint_arg(host, e, "bytes"),
              uint_arg(host, e, "samples"),
              uint_arg(host, e, "error bytes"),
              {}};
  const auto [frames, count] = host.stack(stack_arg(host, e));
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view frame = host.string(frames[i]);
    if (i > 0) row.full_stack += " <- ";
    row.full_stack += frame;
    if (i < kShownFrames) row.site += (i > 0 ? " <- " : "") + std::string(frame);
  }
  if (count > kShownFrames) row.site += " <- ... (" + std::to_string(count) + " frames)";
  if (count == 0) row.site = std::string(host.string(e.name));
  return row;
}

// "app (pid 42)", for the headings.
std::string heap_owner(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = host.track(track);
  if (desc == nullptr) return "track " + std::to_string(track);
  std::string text =
      desc->name != nullptr && desc->name[0] != '\0' ? short_process_name(desc->name) : "process";
  if (desc->pid != 0) text += " (pid " + std::to_string(desc->pid) + ")";
  return text;
}

std::string bytes_text(uint64_t bytes) { return std::to_string(bytes) + " bytes"; }

void sort_by_bytes(std::vector<SiteRow> &rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const SiteRow &a, const SiteRow &b) { return a.bytes > b.bytes; });
}

std::vector<Cell> site_row(const char *part, const SiteRow &row, bool bytes) {
  return {Cell::of_text(part), bytes ? Cell::of_count(row.bytes) : Cell::of_text("-", ""),
          Cell::of_text("-", ""), Cell::of_count(row.blocks), Cell::of_text(row.site)};
}

std::vector<Cell> sampled_stack_row(const char *part, const SiteRow &row) {
  return {Cell::of_text(part), Cell::of_count(row.bytes), Cell::of_count(row.error),
          Cell::of_count(row.blocks), Cell::of_text(row.site, row.full_stack)};
}

// A section of sampled stacks, most bytes first, when there are any.
void add_stacks(StatsTable &table, const std::string &label, const std::string &what,
                const char *part, std::vector<SiteRow> &rows, const std::string &sampling) {
  if (rows.empty()) return;
  Section stacks{label, "======== Heap of " + label + ": " + what + " (" + sampling + "):", {}};
  sort_by_bytes(rows);
  for (const SiteRow &row : rows)
    stacks.rows.push_back(sampled_stack_row(part, row));
  table.sections.push_back(std::move(stacks));
}

std::string sampling_text(const ExportHost &host, const ProcessHeap &heap) {
  const uint64_t period = heap.totals ? uint_arg(host, *heap.totals, "stack sample bytes") : 0;
  std::string text = period <= 1 ? "every allocation's stack"
                                 : "stacks sampled every " + std::to_string(period) +
                                       " bytes on average, bytes estimated within Error";
  const uint64_t refused = heap.totals ? uint_arg(host, *heap.totals, "stacks not kept") : 0;
  if (refused > 0)
    text += "; " + std::to_string(refused) + " samples of stacks past the 16384 kept left out";
  return text;
}

} // namespace

StatsTable heap_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"memory",
                   "Process",
                   {{"Part", "Part", Align::Left},
                    {"Bytes", "Bytes", Align::Right},
                    {"Error", "Error", Align::Right},
                    {"Blocks", "Blocks", Align::Right},
                    {"Site", "Site", Align::Left}},
                   {},
                   "======== Heap: no memory profile in this report (prof --memory-profile)",
                   {}};
  std::map<prof_track_id, ProcessHeap> processes;
  for (const prof_event &e : aggregator.heap_events()) {
    ProcessHeap &heap = processes[e.track];
    const std::string_view category = host.string(e.category);
    const SiteRow row{std::string(host.string(e.name)), uint_arg(host, e, "bytes"),
                      uint_arg(host, e, "blocks")};
    if (category == "heap/totals") heap.totals = &e;
    if (category == "heap/peak") heap.peak = &e;
    if (category == "heap/peak-sites") heap.peak_sites = &e;
    if (category == "heap/peak-site") heap.at_peak.push_back(row);
    if (category == "heap/leak") heap.leaks.push_back(row);
    if (category == "heap/prof-live") heap.prof_live.push_back(row);
    if (category == "heap/size-class")
      heap.sizes.push_back({row.site, 0, uint_arg(host, e, "allocations"), 0, {}});
    if (category == "heap/peak-stack") heap.stacks_at_peak.push_back(stack_row(host, e));
    if (category == "heap/leak-stack") heap.leak_stacks.push_back(stack_row(host, e));
  }
  const uint64_t origin = report_time_origin(aggregator, host);
  const auto at = [origin](uint64_t ts) {
    return format_duration(ts > origin ? ts - origin : 0) + " into the report";
  };
  for (auto &[track, heap] : processes) {
    const std::string label = heap_owner(host, track);
    if (heap.peak != nullptr) {
      Section peak{label,
                   "======== Heap of " + label + ": peak " +
                       bytes_text(uint_arg(host, *heap.peak, "bytes")) + ", " + at(heap.peak->ts) +
                       // Reports before exact peaks took the sites at a sampled moment.
                       (heap.peak_sites
                            ? "; call sites at the largest heap sampled (" +
                                  bytes_text(uint_arg(host, *heap.peak_sites, "bytes")) + ", " +
                                  at(heap.peak_sites->ts) + ")"
                            : "; call sites at the peak") +
                       ":",
                   {}};
      sort_by_bytes(heap.at_peak);
      for (const SiteRow &row : heap.at_peak)
        peak.rows.push_back(site_row("peak", row, true));
      table.sections.push_back(std::move(peak));
    }
    add_stacks(table, label,
               heap.peak_sites ? "call stacks at the largest heap sampled"
                               : "call stacks at the peak",
               "peak-stack", heap.stacks_at_peak, sampling_text(host, heap));
    uint64_t leaked = 0, leaked_blocks = 0;
    for (const SiteRow &row : heap.leaks) {
      leaked += row.bytes;
      leaked_blocks += row.blocks;
    }
    uint64_t own = 0, own_blocks = 0;
    for (const SiteRow &row : heap.prof_live) {
      own += row.bytes;
      own_blocks += row.blocks;
    }
    Section leaks{label,
                  "======== Heap of " + label + ": live at exit (leaks), " + bytes_text(leaked) +
                      " in " + std::to_string(leaked_blocks) + " blocks" +
                      (own_blocks > 0 ? " (and prof's own, not counted: " + bytes_text(own) +
                                            " in " + std::to_string(own_blocks) + " blocks)"
                                      : std::string()) +
                      ":",
                  {}};
    sort_by_bytes(heap.leaks);
    for (const SiteRow &row : heap.leaks)
      leaks.rows.push_back(site_row("leak", row, true));
    table.sections.push_back(std::move(leaks));
    add_stacks(table, label, "live at exit by call stack", "leak-stack", heap.leak_stacks,
               sampling_text(host, heap));
    if (heap.totals != nullptr) {
      const prof_event &t = *heap.totals;
      Section sizes{label,
                    "======== Heap of " + label + ": " +
                        std::to_string(uint_arg(host, t, "allocations")) + " allocations (" +
                        bytes_text(uint_arg(host, t, "bytes allocated")) + "), " +
                        std::to_string(uint_arg(host, t, "frees")) + " frees, " +
                        std::to_string(uint_arg(host, t, "temporary allocations")) +
                        " temporary (freed before the thread's next allocation); by size:",
                    {}};
      for (const SiteRow &row : heap.sizes)
        sizes.rows.push_back(site_row("size", row, false));
      table.sections.push_back(std::move(sizes));
    }
  }
  bool sampled_peaks = false;
  for (const auto &[track, heap] : processes)
    sampled_peaks |= heap.peak_sites != nullptr;
  if (!table.sections.empty())
    table.notes.push_back(
        "Sites are the code that called the allocator (malloc, operator new, ...), their bytes "
        "exact. " +
        std::string(sampled_peaks
                        ? "Call sites at the peak are those of the largest heap the memory source "
                          "sampled, within one sampling period of the peak; prof's own "
                          "allocations are one row there, and kept out of the leaks. "
                        : "The peak and its call sites are exact, at the moment of the peak; "
                          "prof's own allocations are left out of the peak and of the leaks. ") +
        "Call stacks (leaf first, Python frames where the interpreter ran them) are those of a "
        "sample by bytes: Bytes estimates what the stack holds, Error is two standard errors "
        "(the truth lies within it 95% of the time), Blocks counts the sampled blocks.");
  return table;
}

} // namespace prof::stats
