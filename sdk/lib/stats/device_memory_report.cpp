#include "device_memory_report.hpp"

#include <prof/stats/activity_rows.hpp>
#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace prof::stats {
namespace {

std::string hex(uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%" PRIx64, address);
  return text;
}

Cell text_or_dash(std::string text) {
  return text.empty() ? Cell::of_text("-", "") : Cell::of_text(std::move(text));
}

std::vector<Cell> block_row(const char *what, const MemoryBlock &block, uint64_t origin,
                            const MemoryLog &log, const ExportHost &host) {
  const MemoryCall *call = log.call(block.correlation);
  return {Cell::of_text(what),
          Cell::of_ns(block.allocated_ts - std::min(origin, block.allocated_ts)),
          Cell::of_text(hex(block.address)),
          Cell::of_count(block.bytes),
          text_or_dash(block.memory != 0 ? std::string(host.string(block.memory)) : ""),
          text_or_dash(call != nullptr ? std::string(host.string(call->name)) : ""),
          text_or_dash(call != nullptr ? thread_label(host, call->track) : "")};
}

std::string count_text(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string blocks_text(uint64_t n) { return count_text(n, "block", "blocks"); }

} // namespace

StatsTable device_memory_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"device-memory",
                   "Device",
                   {{"Block", "Block", Align::Right},
                    {"Time", "Time(ns)", Align::Right},
                    {"Address", "Address", Align::Left},
                    {"Bytes", "Bytes", Align::Right},
                    {"Memory", "Memory", Align::Left},
                    {"Call", "Call", Align::Left},
                    {"Thread", "Thread", Align::Left}},
                   {},
                   "======== Device memory: no device memory events in this report",
                   {}};
  const MemoryLog &log = aggregator.memory();
  if (log.empty()) return table;
  const uint64_t origin = report_time_origin(aggregator, host);
  std::vector<std::pair<std::string, DeviceMemoryUse>> devices;
  for (DeviceMemoryUse &use : log.analyze())
    devices.emplace_back(device_label(host, use.device), std::move(use));
  std::stable_sort(devices.begin(), devices.end(),
                   [](const auto &a, const auto &b) { return natural_less(a.first, b.first); });
  for (const auto &[label, use] : devices) {
    Section section{label, "======== Device memory (" + label + "):", {}};
    if (use.peak_bytes > 0)
      section.rows.push_back(
          {Cell::of_text("peak"), Cell::of_ns(use.peak_ts - std::min(origin, use.peak_ts)),
           Cell::of_text("-", ""), Cell::of_count(use.peak_bytes), Cell::of_text("device"),
           Cell::of_text("-", ""), Cell::of_text("-", "")});
    for (const MemoryBlock &block : use.at_peak)
      section.rows.push_back(block_row("live at peak", block, origin, log, host));
    for (const MemoryBlock &block : use.leaks)
      section.rows.push_back(block_row("leak", block, origin, log, host));
    uint64_t leaked = 0;
    for (const MemoryBlock &block : use.leaks)
      leaked += block.bytes;
    std::string note = label + ": " + count_text(use.allocs, "allocation", "allocations") + ", " +
                       count_text(use.frees, "free", "frees") + "; peak " +
                       format_bytes(use.peak_bytes);
    if (use.peak_bytes > 0)
      note += " at " + format_duration(use.peak_ts - std::min(origin, use.peak_ts)) + " with " +
              blocks_text(use.at_peak.size()) + " live";
    note += "; " + blocks_text(use.leaks.size()) + " (" + format_bytes(leaked) + ") never freed";
    table.notes.push_back(note);
    if (use.unmatched_frees > 0)
      table.notes.push_back(label + ": " +
                            (use.unmatched_frees == 1
                                 ? std::string("1 free of a block allocated before the capture was")
                                 : std::to_string(use.unmatched_frees) +
                                       " frees of blocks allocated before the capture were") +
                            " ignored");
    if (!section.rows.empty()) table.sections.push_back(std::move(section));
  }
  table.notes.push_back("the peak counts device memory (not pinned host memory); a block's Time "
                        "is when it was allocated, the peak's when it was reached; times count "
                        "from the session's start");
  return table;
}

} // namespace prof::stats
