#include "hang_report.hpp"

#include <prof/event.hpp>
#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace prof::stats {
namespace {

/// Frames of a latest stack shown, from the leaf.
constexpr uint32_t kStackFramesShown = 12;

/// One rank (process) on one communicator.
struct RankCalls {
  std::optional<uint64_t> entered, completed;
  /// Its unfinished call of the lowest sequence: where it is held up (a
  /// library that queues collectives, NCCL, has the later ones open too).
  const CollectiveCall *open = nullptr;
  std::set<uint64_t> finished, unfinished;
};

Cell dash() { return Cell::of_text("-", ""); }

Cell sequence_cell(const std::optional<uint64_t> &sequence) {
  return sequence ? Cell::of_count(*sequence) : dash();
}

std::string sequence_text(const std::optional<uint64_t> &sequence) {
  return sequence ? "#" + std::to_string(*sequence) : "none";
}

std::string call_text(const ExportHost &host, const CollectiveCall &call) {
  return std::string(host.string(call.name)) + " #" + std::to_string(call.sequence);
}

std::string category_text(const ExportHost &host, const prof_event &e) {
  return e.category != 0 ? std::string(host.string(e.category)) : category_name(e.kind);
}

std::string stack_text(const ExportHost &host, prof_stack_id stack) {
  const auto [frames, count] = host.stack(stack);
  std::string text;
  for (uint32_t i = 0; i < count && i < kStackFramesShown; ++i) {
    if (i > 0) text += " <- ";
    text += host.string(frames[i]);
  }
  if (count > kStackFramesShown) text += " <- ...";
  return text;
}

std::string joined(const std::vector<std::string> &items) {
  std::string text;
  for (const std::string &item : items)
    text += (text.empty() ? "" : ", ") + item;
  return text;
}

/// Who waits for whom on one communicator: a section, its notes, and the
/// ranks it blames (those that never entered the operation others wait in,
/// the furthest any rank is held up in).
void add_communicator(const std::string &communicator, std::map<std::string, RankCalls> &ranks,
                      const ExportHost &host, StatsTable &table, std::set<std::string> &blamed) {
  uint64_t top = 0;
  for (const auto &[label, calls] : ranks)
    if (calls.open != nullptr) top = std::max(top, calls.open->sequence);
  std::vector<std::string> labels, waiting, behind;
  uint64_t longest = 0;
  for (const auto &[label, calls] : ranks)
    labels.push_back(label);
  std::sort(labels.begin(), labels.end(), natural_less);
  std::map<std::string, std::vector<std::string>> waiting_by_name;
  for (const std::string &label : labels) {
    const RankCalls &calls = ranks[label];
    if (calls.open != nullptr && calls.open->sequence == top) {
      waiting.push_back(label);
      waiting_by_name[std::string(host.string(calls.open->name))].push_back(label);
      longest = std::max(longest, calls.open->end - calls.open->begin);
    }
    if (calls.entered.value_or(0) < top) behind.push_back(label);
  }
  Section section{communicator, "======== Hang (" + communicator + "):", {}};
  for (const std::string &label : labels) {
    const RankCalls &calls = ranks[label];
    const bool is_behind = calls.entered.value_or(0) < top;
    const char *state = is_behind                            ? "behind"
                        : calls.open == nullptr              ? "completed"
                        : behind.empty() && !waiting.empty() ? "inside with all"
                                                             : "waits";
    section.rows.push_back({Cell::of_text(label), sequence_cell(calls.entered),
                            sequence_cell(calls.completed),
                            calls.open ? Cell::of_text(call_text(host, *calls.open)) : dash(),
                            calls.open ? Cell::of_ns(calls.open->end - calls.open->begin) : dash(),
                            Cell::of_text(state)});
  }
  table.sections.push_back(std::move(section));
  if (waiting.empty()) return;
  const std::string operation = waiting_by_name.begin()->first + " #" + std::to_string(top);
  if (!behind.empty()) {
    std::vector<std::string> late;
    for (const std::string &label : behind) {
      late.push_back(label + " (last entered " + sequence_text(ranks[label].entered) + ")");
      blamed.insert(label);
    }
    table.notes.push_back(communicator + ": " + std::to_string(waiting.size()) + " of " +
                          std::to_string(labels.size()) + " ranks wait in " + operation +
                          " (for up to " + format_duration(longest) + ") for " + joined(late));
  } else if (waiting.size() == labels.size()) {
    table.notes.push_back(communicator + ": every rank is inside " + operation + " (for up to " +
                          format_duration(longest) + "): the operation itself does not finish");
  }
  if (waiting_by_name.size() > 1) {
    std::vector<std::string> names;
    for (const auto &[name, members] : waiting_by_name)
      names.push_back(name + " (" + joined(members) + ")");
    table.notes.push_back(communicator + ": the ranks inside #" + std::to_string(top) +
                          " called different operations: " + joined(names));
  }
}

} // namespace

StatsTable hang_report(const StatsAggregator &aggregator, const ExportHost &host) {
  StatsTable table{"hang",
                   "Communicator",
                   {{"Process", "Process", Align::Left},
                    {"Entered", "Entered", Align::Right},
                    {"Completed", "Completed", Align::Right},
                    {"Inside", "Inside", Align::Left},
                    {"For", "For(ns)", Align::Right},
                    {"State", "State", Align::Left}},
                   {},
                   "======== Hang: nothing was open at a dump in this report (dumps come from "
                   "--flight-recorder with prof dump or --hang-timeout)",
                   {}};
  // One label a process, however many calls and slices it has.
  std::map<prof_track_id, std::string> labels;
  const auto label_of = [&](prof_track_id process) -> const std::string & {
    auto found = labels.find(process);
    if (found == labels.end()) found = labels.emplace(process, process_label(host, process)).first;
    return found->second;
  };

  // By resolved texts: equal names interned apart (merged reports) are one.
  std::map<std::string, std::map<std::string, RankCalls>> communicators;
  for (const CollectiveCall &call : aggregator.collective_calls()) {
    RankCalls &rank =
        communicators[std::string(host.string(call.communicator))][label_of(call.process)];
    rank.entered = std::max(rank.entered.value_or(0), call.sequence);
    (call.unfinished ? rank.unfinished : rank.finished).insert(call.sequence);
    if (call.unfinished && (rank.open == nullptr || call.sequence < rank.open->sequence))
      rank.open = &call;
  }
  // Completed: finished and not open at the dump. A library that records a
  // collective as it enqueues it (NCCL) has a finished slice of the one its
  // kernel is still inside.
  for (auto &[communicator, ranks] : communicators)
    for (auto &[label, rank] : ranks)
      for (auto it = rank.finished.rbegin(); it != rank.finished.rend(); ++it)
        if (!rank.unfinished.contains(*it)) {
          rank.completed = *it;
          break;
        }
  std::vector<std::string> names;
  for (const auto &[communicator, ranks] : communicators)
    if (std::any_of(ranks.begin(), ranks.end(), [](const auto &r) { return r.second.open; }))
      names.push_back(communicator); // one no rank is inside holds nobody up
  std::sort(names.begin(), names.end(), natural_less);
  std::set<std::string> blamed;
  for (const std::string &communicator : names)
    add_communicator(communicator, communicators[communicator], host, table, blamed);

  // The slices open at the dumps, by process, thread and begin (outermost first).
  struct Open {
    std::string process, thread;
    const prof_event *event;
  };
  std::vector<Open> open;
  std::map<std::string, uint64_t> dumped_at; // by process: the end of its open slices
  for (const OpenSlice &slice : aggregator.open_slices()) {
    open.push_back({label_of(slice.process), thread_label(host, slice.event.track), &slice.event});
    uint64_t &at = dumped_at[open.back().process];
    at = std::max(at, slice.event.ts + slice.event.duration);
  }
  if (open.empty() && table.sections.empty()) return table;
  std::sort(open.begin(), open.end(), [](const Open &a, const Open &b) {
    if (a.process != b.process) return natural_less(a.process, b.process);
    if (a.thread != b.thread) return natural_less(a.thread, b.thread);
    return a.event->ts != b.event->ts ? a.event->ts < b.event->ts
                                      : a.event->duration > b.event->duration;
  });
  Section open_section{"",
                       "======== Open at the dump:",
                       {},
                       {{"Process", "Process", Align::Left},
                        {"Thread", "Thread", Align::Left},
                        {"Category", "Category", Align::Left},
                        {"Name", "Name", Align::Left},
                        {"For", "For(ns)", Align::Right},
                        {"Arguments", "Arguments", Align::Left}}};
  // Each blamed rank's open slices on each thread, outermost first: what it is doing.
  std::map<std::string, std::map<std::string, std::vector<const prof_event *>>> open_of_rank;
  for (const Open &o : open) {
    const prof_event &e = *o.event;
    open_section.rows.push_back(
        {Cell::of_text(o.process), Cell::of_text(o.thread), Cell::of_text(category_text(host, e)),
         Cell::of_text(std::string(host.string(e.name))), Cell::of_ns(e.duration),
         Cell::of_text(host.args_text(e.args, ", "))});
    if (blamed.contains(o.process)) open_of_rank[o.process][o.thread].push_back(&e);
  }
  table.sections.push_back(std::move(open_section));

  // The latest CPU sample of each thread: of the blamed ranks, or of all.
  struct Latest {
    std::string process, thread;
    const LatestSample *sample;
  };
  std::vector<Latest> latest;
  for (const auto &[track, sample] : aggregator.latest_samples()) {
    std::string process = label_of(sample.process);
    if (blamed.empty() || blamed.contains(process))
      latest.push_back({std::move(process), thread_label(host, track), &sample});
  }
  std::sort(latest.begin(), latest.end(), [](const Latest &a, const Latest &b) {
    return a.process != b.process ? natural_less(a.process, b.process)
                                  : natural_less(a.thread, b.thread);
  });
  Section stacks{"",
                 "======== Latest CPU sample of each thread:",
                 {},
                 {{"Process", "Process", Align::Left},
                  {"Thread", "Thread", Align::Left},
                  {"Before", "Before(ns)", Align::Right},
                  {"Stack", "Stack", Align::Left}}};
  std::map<std::string, const Latest *> latest_of_process;
  for (const Latest &l : latest) {
    const auto at = dumped_at.find(l.process);
    const bool known = at != dumped_at.end() && at->second >= l.sample->ts;
    stacks.rows.push_back({Cell::of_text(l.process), Cell::of_text(l.thread),
                           known ? Cell::of_ns(at->second - l.sample->ts) : dash(),
                           Cell::of_text(stack_text(host, l.sample->stack))});
    const Latest *&newest = latest_of_process[l.process];
    if (newest == nullptr || l.sample->ts > newest->sample->ts) newest = &l;
  }
  if (!stacks.rows.empty()) table.sections.push_back(std::move(stacks));

  std::vector<std::string> blamed_ranks(blamed.begin(), blamed.end());
  std::sort(blamed_ranks.begin(), blamed_ranks.end(), natural_less);
  for (const std::string &process : blamed_ranks) {
    if (const auto threads = open_of_rank.find(process); threads != open_of_rank.end()) {
      // Threads inside work the application marks (a range, a collective, an
      // operator, an API call) say what it does; the others only wait (a
      // runtime's poll threads), named only when no thread does more.
      const auto marked = [](const std::vector<const prof_event *> &chain) {
        return std::any_of(chain.begin(), chain.end(),
                           [](const prof_event *e) { return e->kind != PROF_CATEGORY_OTHER; });
      };
      const bool any_marked = std::any_of(threads->second.begin(), threads->second.end(),
                                          [&](const auto &entry) { return marked(entry.second); });
      for (const auto &[thread, chain] : threads->second) {
        if (any_marked && !marked(chain)) continue;
        const prof_event &inner = *chain.back();
        const std::string args = host.args_text(inner.args, ", ");
        std::string note = process + " is inside " + std::string(host.string(inner.name)) + " (" +
                           category_text(host, inner) + (args.empty() ? "" : ", " + args) + ")";
        for (auto outer = chain.rbegin() + 1; outer != chain.rend(); ++outer)
          note += " within " + std::string(host.string((*outer)->name)) + " (" +
                  category_text(host, **outer) + ")";
        table.notes.push_back(note + " on thread " + thread + ", for " +
                              format_duration(inner.duration));
      }
    } else if (const auto l = latest_of_process.find(process); l != latest_of_process.end()) {
      table.notes.push_back(process + " has nothing open; its latest CPU sample (thread " +
                            l->second->thread + "): " + stack_text(host, l->second->sample->stack));
    } else {
      table.notes.push_back(process + " has nothing open and no CPU sample: trace Python "
                                      "functions or OS runtime calls, or sample the CPU, to see "
                                      "what it does");
    }
  }
  return table;
}

} // namespace prof::stats
