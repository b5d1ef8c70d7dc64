#include "critical_path_report.hpp"

#include <prof/stats/process_label.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <array>

namespace prof::stats {
namespace {

/// What a stretch ran: "SLICE in OUTER", "SLICE", "SLICE (nothing recorded
/// under it)", or in a gap "nothing recorded".
std::string what_ran(const PathSegment &segment, const ExportHost &host) {
  if (segment.name == 0) return "nothing recorded";
  std::string text(host.string(segment.name));
  if (segment.work == PathWork::Untraced) text += " (nothing recorded under it)";
  if (segment.within != 0) text += " in " + std::string(host.string(segment.within));
  return text;
}

/// The late process's stretch of the path that overlaps [from, to) most.
const PathSegment *longest_on(const CriticalPath &path, prof_track_id process, uint64_t from,
                              uint64_t to) {
  const PathSegment *longest = nullptr;
  uint64_t most = 0;
  for (const PathSegment &s : path.segments) {
    if (s.process != process) continue;
    const uint64_t begin = std::max(s.begin, from), end = std::min(s.end, to);
    if (end > begin && end - begin > most) {
      most = end - begin;
      longest = &s;
    }
  }
  return longest;
}

} // namespace

std::string critical_path_line(const CriticalPath &path, const ExportHost &host) {
  std::string line =
      "step " + std::to_string(path.step) + ": " + format_duration(path.length()) + "; ";
  if (const PathWait *wait = path.holding_wait()) {
    line += format_duration(wait->lateness) + " of it waiting for " +
            process_label(host, wait->late) + " at " +
            std::string(host.string(wait->communicator)) + " " +
            std::string(host.string(wait->name)) + " #" + std::to_string(wait->sequence);
    if (const PathSegment *s =
            longest_on(path, wait->late, wait->at - std::min(wait->at, wait->lateness), wait->at))
      line += (s->name != 0 ? ", which was then in " + what_ran(*s, host)
                            : std::string(", which then had nothing recorded")) +
              " on its thread " + thread_label(host, s->track);
    return line;
  }
  std::vector<size_t> order(kPathWorkKinds);
  for (size_t i = 0; i < kPathWorkKinds; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return path.by_work[a] > path.by_work[b]; });
  line += "on its critical path:";
  for (size_t i = 0, shown = 0; i < kPathWorkKinds && shown < 3; ++i) {
    if (path.by_work[order[i]] == 0) break;
    line += std::string(shown++ ? ", " : " ") +
            std::string(path_work_name(static_cast<PathWork>(order[i]))) + " " +
            format_duration(path.by_work[order[i]]);
  }
  return line;
}

StatsTable critical_path_report(const std::vector<CriticalPath> &paths, const ExportHost &host) {
  StatsTable table{"critical-path",
                   "",
                   {{"Step", "Step", Align::Right},
                    {"Time", "Time(ns)", Align::Right},
                    {"Compute", "Compute(ns)", Align::Right},
                    {"Comm", "Communication(ns)", Align::Right},
                    {"Launch", "Launch(ns)", Align::Right},
                    {"Host", "Host(ns)", Align::Right},
                    {"Waiting", "Waiting(ns)", Align::Right},
                    {"Untraced", "Untraced(ns)", Align::Right},
                    {"LateBy", "LateBy(ns)", Align::Right},
                    {"WhatIf", "WhatIf(ns)", Align::Right},
                    {"Late", "Late", Align::Left}},
                   {},
                   "======== Critical path: no steps (annotation ranges with a \"step\" "
                   "argument) in this report",
                   {}};
  if (paths.empty()) return table;
  Section summary{"", "======== Critical path of each step:", {}};
  for (const CriticalPath &path : paths) {
    const PathWait *wait = path.largest_wait();
    std::vector<Cell> row{Cell::of_count(path.step), Cell::of_ns(path.length())};
    for (const uint64_t ns : path.by_work)
      row.push_back(Cell::of_ns(ns));
    row.push_back(wait ? Cell::of_ns(wait->lateness) : Cell::of_text("-", ""));
    row.push_back(
        Cell::of_ns(path.length() - (wait ? std::min(wait->lateness, path.length()) : 0)));
    row.push_back(wait ? Cell::of_text(process_label(host, wait->late)) : Cell::of_text("-", ""));
    summary.rows.push_back(std::move(row));
  }
  table.sections.push_back(std::move(summary));
  for (const CriticalPath &path : paths) {
    Section section{"",
                    "======== Critical path of step " + std::to_string(path.step) + ":",
                    {},
                    {{"Step", "Step", Align::Right},
                     {"Start", "Start(ns)", Align::Right},
                     {"Time", "Time(ns)", Align::Right},
                     {"Work", "Work", Align::Left},
                     {"Process", "Process", Align::Left},
                     {"Thread", "Thread", Align::Left},
                     {"Slices", "Slices", Align::Right},
                     {"Longest", "Longest", Align::Left}}};
    // Stretches in a row on one track make one row, named by the longest
    // of them and by its main kind of work; waiting and communication
    // stretches stay rows of their own.
    const auto apart = [](PathWork w) {
      return w == PathWork::Waiting || w == PathWork::Communication;
    };
    for (size_t i = 0; i < path.segments.size();) {
      const PathSegment &first = path.segments[i];
      const PathSegment *longest = &first;
      std::array<uint64_t, kPathWorkKinds> by_work{};
      size_t j = i;
      for (; j < path.segments.size() && path.segments[j].track == first.track &&
             (path.segments[j].work == first.work ||
              (!apart(first.work) && !apart(path.segments[j].work)));
           ++j) {
        const PathSegment &s = path.segments[j];
        by_work[static_cast<size_t>(s.work)] += s.end - s.begin;
        if (s.end - s.begin > longest->end - longest->begin) longest = &s;
      }
      const auto main_work =
          static_cast<PathWork>(std::max_element(by_work.begin(), by_work.end()) - by_work.begin());
      const uint64_t end = path.segments[j - 1].end;
      section.rows.push_back({Cell::of_count(path.step), Cell::of_ns(first.begin - path.begin),
                              Cell::of_ns(end - first.begin),
                              Cell::of_text(std::string(path_work_name(main_work))),
                              Cell::of_text(process_label(host, first.process)),
                              Cell::of_text(thread_label(host, first.track)), Cell::of_count(j - i),
                              Cell::of_text(what_ran(*longest, host))});
      i = j;
    }
    table.sections.push_back(std::move(section));
  }
  for (const CriticalPath &path : paths)
    table.notes.push_back(critical_path_line(path, host));
  table.notes.push_back(
      "the critical path of a step: walked back from the end of the rank that ended it last, "
      "through the deepest slice running on each thread, from a wait to what released it (device "
      "work, a communication call, the rank that came last to a collective) and from device work "
      "to its launch; LateBy: the largest lateness on it (how much later that rank came to a "
      "collective than the others), WhatIf: the step's time without it");
  return table;
}

} // namespace prof::stats
