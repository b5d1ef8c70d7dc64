#include "core/report/report_split.hpp"

#include "core/report/report_reader.hpp"
#include "core/report/report_writer.hpp"

#include <prof/launcher_rank.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <unistd.h>

namespace prof::report {
namespace {

namespace fs = std::filesystem;

constexpr int kNoGroup = -1;
constexpr int kEveryReport = -2; ///< a track of no process: shared by every report

/// Which report each track goes to: its process's, the one of the process
/// that owns it (a device's stream, prof_track_desc::pid), or every one.
class TrackGroups {
public:
  TrackGroups(const ReportReader &reader, const ProcessGroupOf &group_of)
      : reader_(reader), group_of_(group_of) {
    for (const auto &[id, track] : reader.tracks())
      if (track.kind == PROF_TRACK_PROCESS) processes_.try_emplace(track.pid, id);
  }

  int group(uint32_t track) {
    if (auto it = groups_.find(track); it != groups_.end()) return it->second;
    int found = kEveryReport;
    uint32_t at = track;
    // Bounded: a damaged report with a parent cycle must not hang us.
    for (int depth = 0; at != 0 && depth < 64; ++depth) {
      const TrackRecord *record = reader_.track(at);
      if (record == nullptr) break;
      if (record->kind == PROF_TRACK_PROCESS) {
        found = std::max(group_of_(*record), kNoGroup);
        break;
      }
      if ((record->flags & PROF_TRACK_SHARED) != 0) break; // the device's, every process's
      if (const uint32_t owner = owner_of(*record); owner != 0) {
        found = group(owner);
        break;
      }
      at = record->parent;
    }
    return groups_[track] = found;
  }

private:
  /// The process track of a track's owner, 0 for none or an owner the
  /// report has no process of (then the track is every report's).
  uint32_t owner_of(const TrackRecord &record) const {
    if (record.kind == PROF_TRACK_THREAD || record.pid == 0) return 0;
    const auto found = processes_.find(record.pid);
    return found != processes_.end() ? found->second : 0;
  }

  const ReportReader &reader_;
  const ProcessGroupOf &group_of_;
  std::map<int32_t, uint32_t> processes_; // pid -> its process track
  std::map<uint32_t, int> groups_;
};

/// One report being written, under a temporary name.
struct Output {
  SplitOutput result;
  std::string temp;
  std::unique_ptr<ReportWriter> writer;
  std::vector<bool> args_used;
  uint64_t dropped = 0;
  TimeSpan span;
};

} // namespace

std::vector<SplitOutput> split_report(const std::string &input, const ProcessGroupOf &group_of,
                                      const std::function<std::string(int)> &path_for,
                                      const DescribeGroup &describe, bool keep_rest,
                                      bool force_overwrite, const GroupSpans &spans) {
  ReportReader reader;
  if (!reader.open(input))
    throw ReportError(reader.problems().empty() ? "cannot read report " + in_quotes(input)
                                                : reader.problems().back());
  TrackGroups groups(reader, group_of);
  std::map<int, Output> outputs; // by group, kNoGroup first
  std::map<int, std::vector<int32_t>> pids;
  for (const auto &[id, track] : reader.tracks()) {
    if (track.kind != PROF_TRACK_PROCESS) continue;
    const int group = groups.group(id);
    pids[group].push_back(track.pid);
    outputs[group];
  }
  if (outputs.empty() || outputs.rbegin()->first < 0) return {}; // no group anywhere
  const bool drops_of_no_thread =
      std::any_of(reader.drops().begin(), reader.drops().end(),
                  [&](const auto &ring_drop) { return ring_drop.first >= kFirstCauseRing; });
  if (keep_rest || drops_of_no_thread) outputs[kNoGroup];

  // Where each report goes: refused before anything is written.
  std::error_code ec;
  for (auto &[group, out] : outputs) {
    out.result.group = group;
    if (const auto span = spans.find(group); span != spans.end()) out.span = span->second;
    out.result.path = path_for(group);
    const bool replaces_input = fs::equivalent(out.result.path, input, ec);
    if (!force_overwrite && !replaces_input && fs::exists(fs::symlink_status(out.result.path, ec)))
      throw ReportError("output file " + in_quotes(out.result.path) +
                        " already exists (use --force-overwrite)");
    out.temp = out.result.path + ".split-" + std::to_string(::getpid()) + ".tmp";
  }

  // The argument sets each report's events use.
  const uint32_t args_end = reader.args().last_id() + 1;
  for (auto &[group, out] : outputs)
    out.args_used.assign(args_end, false);
  const auto route = [&](const prof_event &e, const auto &each) {
    const auto in_span = [&e](const Output &out) {
      return e.ts >= out.span.begin && e.ts < out.span.end;
    };
    const int group = groups.group(e.track);
    if (group != kEveryReport) {
      if (Output &out = outputs.at(group); in_span(out)) each(out);
      return;
    }
    for (auto &[group, out] : outputs)
      if (in_span(out)) each(out);
  };
  const auto carries_args = [](const prof_event &e) {
    return (e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT) && e.args != 0;
  };
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (size_t i = 0; i < count; ++i)
      if (carries_args(events[i]) && events[i].args < args_end)
        route(events[i], [&](Output &out) { out.args_used[events[i].args] = true; });
  });

  try {
    std::vector<std::string_view> strings(reader.strings().begin() + 1, reader.strings().end());
    std::vector<StackRecord> stacks;
    for (const auto &[id, stack] : reader.stacks())
      stacks.push_back(stack);
    std::vector<ClockDomainRecord> clocks;
    for (const auto &[id, clock] : reader.clock_domains())
      clocks.push_back(clock);
    for (auto &[group, out] : outputs) {
      Header header = reader.header();
      header.pids = pids[group];
      header.session_start_ns = std::max(header.session_start_ns, out.span.begin);
      describe(group, header);
      out.writer = std::make_unique<ReportWriter>();
      out.writer->open(out.temp, header, true);
      out.writer->add_strings(1, strings);
      std::vector<TrackRecord> tracks;
      for (const auto &[id, track] : reader.tracks()) {
        const int group = groups.group(id);
        if (group == out.result.group) tracks.push_back(track);
        // In every report: one copy of the capture's, which a merge keeps once.
        if (group == kEveryReport) {
          tracks.push_back(track);
          tracks.back().flags |= PROF_TRACK_SHARED;
        }
      }
      out.writer->add_tracks(tracks);
      out.writer->add_stacks(stacks);
      out.writer->add_clock_domains(clocks);
      std::vector<ArgsRecord> sets;
      for (const auto &[id, set] : reader.args())
        if (id < args_end && out.args_used[id])
          sets.push_back({id, std::vector<prof_arg>(set.begin(), set.end())});
      out.writer->add_args(sets);
    }
    reader.for_each_event_batch([&](const prof_event *events, size_t count) {
      for (size_t i = 0; i < count; ++i)
        route(events[i], [&](Output &out) { out.writer->add_events(&events[i], 1); });
    });
    // Each ring's drops go with the process of the thread that owned it.
    std::map<int32_t, int> thread_groups;
    for (const auto &[id, track] : reader.tracks())
      if (track.kind == PROF_TRACK_THREAD) thread_groups[track.tid] = groups.group(id);
    for (const auto &[ring, drop] : reader.drops()) {
      auto found = ring < kFirstCauseRing ? thread_groups.find(drop.tid) : thread_groups.end();
      const int group =
          found != thread_groups.end() && found->second != kEveryReport ? found->second : kNoGroup;
      Output &out = outputs.at(outputs.contains(group) ? group : outputs.begin()->first);
      out.writer->add_drops(std::span<const DropRecord>(&drop, 1));
      out.dropped += drop.dropped;
    }
    for (auto &[group, out] : outputs) {
      Footer footer = reader.footer().value_or(Footer{});
      footer.dropped = out.dropped;
      if (out.span.end < footer.end_ns) footer.end_ns = out.span.end;
      out.result.events = out.writer->events_written();
      out.writer->finish(footer);
      out.writer.reset();
    }
  } catch (...) {
    for (auto &[group, out] : outputs) {
      out.writer.reset();
      fs::remove(out.temp, ec);
    }
    throw;
  }
  std::vector<SplitOutput> written;
  for (auto &[group, out] : outputs) {
    fs::rename(out.temp, out.result.path, ec);
    if (ec) {
      for (auto &[other, left] : outputs)
        fs::remove(left.temp, ec);
      throw ReportError("cannot rename " + in_quotes(out.temp) + " to " +
                        in_quotes(out.result.path) + ": " + ec.message());
    }
    written.push_back(out.result);
  }
  return written;
}

std::vector<SplitOutput> split_by_rank(const std::string &input,
                                       const std::function<std::string(int)> &path_for,
                                       bool force_overwrite) {
  return split_report(
      input, [](const TrackRecord &process) { return rank_in_track_name(process.name); }, path_for,
      [](int rank, Header &header) {
        if (rank >= 0) header.rank = std::to_string(rank);
      },
      true, force_overwrite);
}

} // namespace prof::report
