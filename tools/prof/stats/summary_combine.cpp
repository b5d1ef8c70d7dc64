#include "tools/prof/stats/summary_combine.hpp"

#include "core/report/report_merge.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/stats/summary_store.hpp"
#include <prof/drop_causes.hpp>
#include <prof/stats/aggregator_wire.hpp>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace prof::tool {
namespace {

/// One summary's ids as the combination's, its times on the merged clock.
struct SummaryIds : stats::WireIds {
  std::unordered_map<uint32_t, prof_string_id> strings;
  std::unordered_map<uint32_t, prof_track_id> tracks;
  std::unordered_map<uint32_t, prof_stack_id> stacks;
  std::unordered_map<uint32_t, prof_args_id> sets;
  const report::MergeInput *input = nullptr;

  static uint32_t find(const std::unordered_map<uint32_t, uint32_t> &map, uint32_t id) {
    const auto found = map.find(id);
    return found == map.end() ? 0 : found->second;
  }
  prof_string_id string(prof_string_id id) const override { return find(strings, id); }
  prof_track_id track(prof_track_id id) const override { return find(tracks, id); }
  prof_stack_id stack(prof_stack_id id) const override { return find(stacks, id); }
  prof_args_id args(prof_args_id id) const override { return find(sets, id); }
  uint64_t time(uint64_t ts) const override { return report::merged_time(*input, ts); }
};

/// Interns `summary`'s strings, tracks, stacks and sets into `catalog`.
void add_to_catalog(const RankSummary &summary, const std::string &label, core::Catalog &catalog,
                    SummaryIds &ids) {
  for (const auto &[id, text] : summary.strings)
    ids.strings.emplace(id, catalog.strings.intern(text));
  for (const report::TrackRecord &track : summary.tracks) {
    const prof_track_id parent = ids.track(track.parent);
    const std::string name = report::merged_track_name(track, parent != 0, label);
    const prof_track_desc desc{sizeof(prof_track_desc),
                               track.kind,
                               parent,
                               name.c_str(),
                               track.pid,
                               track.tid,
                               track.index,
                               track.unit.empty() ? nullptr : track.unit.c_str(),
                               PROF_CLOCK_SESSION,
                               track.flags};
    if (const prof_track_id id = catalog.tracks.declare_distinct(&desc)) ids.tracks[track.id] = id;
  }
  for (const report::StackRecord &stack : summary.stacks) {
    std::vector<prof_string_id> frames;
    frames.reserve(stack.frames.size());
    for (const uint32_t frame : stack.frames)
      frames.push_back(ids.string(frame));
    ids.stacks[stack.id] = catalog.stacks.intern(frames);
  }
  for (const report::ArgsRecord &set : summary.args) {
    std::vector<prof_arg> args = set.args;
    for (prof_arg &arg : args) {
      arg.key = ids.string(arg.key);
      if (arg.type == PROF_ARG_STRING) arg.value.u = ids.string(arg.value.s);
      if (arg.type == PROF_ARG_STACK)
        arg.value.u = arg.value.u <= UINT32_MAX ? ids.stack(static_cast<uint32_t>(arg.value.u)) : 0;
    }
    ids.sets[set.id] = catalog.args.intern(args);
  }
}

/// The collective operations of `summary` on its own clock, as the merge's
/// clock check reads them from a report: the first `enough` it keeps.
report::CollectiveTimes collective_times_of(const RankSummary &summary, size_t enough) {
  stats::StatsAggregator scratch(ExportHost(nullptr, nullptr), summary_scope());
  report::CollectiveTimes times;
  if (!stats::AggregatorWire::load(summary.aggregator, scratch)) return times;
  std::unordered_map<uint32_t, const std::string *> texts;
  for (const auto &[id, text] : summary.strings)
    texts.emplace(id, &text);
  for (const stats::CollectiveCall &call : scratch.collective_calls()) {
    const auto communicator = texts.find(call.communicator);
    if (communicator == texts.end()) continue;
    const std::string key = *communicator->second + '\t' + std::to_string(call.sequence);
    if (times.calls.size() >= enough && !times.calls.contains(key)) continue;
    auto &times_of_call = times.calls[key];
    times_of_call.begin = std::min(times_of_call.begin, call.begin);
    times_of_call.end = std::max(times_of_call.end, call.end);
  }
  return times;
}

/// What `thinning` left out of `kept` records, in a line; "" when nothing.
std::string left_out_note(const Thinning &thinning, size_t kept, const std::string &records,
                          const std::string &one, const std::string &number) {
  if (thinning.left_out == 0) return "";
  return "from per-rank summaries: " + std::to_string(thinning.left_out) + " of " +
         std::to_string(thinning.left_out + kept) + " " + records + " left out (kept: one " + one +
         " in " + std::to_string(thinning.stride) + ", chosen by its " + number +
         ", the same on every rank; --summaries never keeps all)";
}

} // namespace

CombinedSummaries::CombinedSummaries(const std::vector<std::string> &reports,
                                     core::Console *console, std::vector<RankSummary> made) {
  const auto warn = [console](const std::string &line) {
    if (console) console->warning(line);
  };
  // Each summary read once (kilobytes each); first the facts of every rank,
  // for the merge's plan (its clocks).
  std::vector<RankSummary> summaries = std::move(made);
  if (summaries.size() != reports.size()) {
    summaries.clear();
    summaries.reserve(reports.size());
    for (const std::string &report : reports)
      summaries.push_back(summary_of(report, console));
  }
  std::vector<report::MergeInputFacts> facts;
  std::array<uint64_t, PROF_DROP_CAUSE_COUNT> dropped{};
  Thinning collectives, steps; // over every rank: the largest stride
  for (RankSummary &summary : summaries) {
    for (size_t cause = 0; cause < dropped.size(); ++cause)
      dropped[cause] += summary.dropped[cause];
    for (auto [all, one] :
         {std::pair{&collectives, &summary.collectives}, {&steps, &summary.steps}}) {
      all->stride = std::max(all->stride, one->stride);
      all->left_out += one->left_out;
    }
    facts.push_back(std::move(summary.facts));
  }
  report::MergePlan plan;
  try {
    plan = report::plan_merge(std::move(facts), [&](size_t input, size_t enough) {
      return collective_times_of(summaries[input], enough);
    });
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("stats: ") + e.what());
  }
  for (const std::string &warning : plan.warnings)
    warn(warning);
  header_ = plan.header;
  session_ = core::session_of(header_, details_);
  view_ = std::make_unique<core::CatalogExportView>(catalog_, session_);
  core::CaptureEnd end;
  end.dropped = dropped[PROF_DROP_RING_FULL];
  for (prof_drop_cause cause : kDropCauses)
    if (cause != PROF_DROP_RING_FULL && dropped[cause] > 0)
      end.drops.push_back({report::cause_ring(cause), 0, dropped[cause]});
  view_->set_drops(end);
  host_ = core::export_host(*view_);
  for (prof_drop_cause cause : kDropCauses)
    if (dropped[cause] > 0)
      warn("this capture lost events: " + drop_cause_line(cause, dropped[cause]));

  // Then each rank's aggregator, each summary let go once loaded.
  aggregator_.emplace(host_, summary_scope());
  for (size_t i = 0; i < reports.size(); ++i) {
    const RankSummary summary = std::move(summaries[i]);
    SummaryIds ids;
    ids.input = &plan.inputs[i];
    add_to_catalog(summary, plan.inputs[i].label, catalog_, ids);
    if (!stats::AggregatorWire::load(summary.aggregator, *aggregator_, ids))
      throw std::runtime_error("stats: the summary of '" + reports[i] + "' does not load");
  }
  collectives.left_out += thin_collective_calls(*aggregator_, collectives.stride);
  steps.left_out += thin_steps(*aggregator_, steps.stride);
  collectives_note_ = left_out_note(collectives, aggregator_->collective_calls().size(),
                                    "collective calls", "operation", "sequence number");
  steps_note_ =
      left_out_note(steps, aggregator_->steps().size(), "steps of ranks", "step", "step number");
}

std::vector<std::string> CombinedSummaries::notes_for(const std::string &name) const {
  const std::string &note = name == "stragglers" || name == "hang" ? collectives_note_
                            : name == "steps"                      ? steps_note_
                                                                   : "";
  return note.empty() ? std::vector<std::string>{} : std::vector<std::string>{note};
}

} // namespace prof::tool
