#include "core/report/report_merge.hpp"

#include "core/report/collective_alignment.hpp"
#include "core/report/report_writer.hpp"

#include <prof/rank_clock.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace prof::report {
namespace {

namespace fs = std::filesystem;

bool has_anchor(const Header &header) { return has_wall_clock(header); }

// The realtime at which the capture's monotonic clock read 0 (its boot time).
int64_t clock_origin(const ClockAnchor &anchor) {
  return static_cast<int64_t>(anchor.realtime_ns) - static_cast<int64_t>(anchor.monotonic_ns);
}

uint64_t shifted(uint64_t ts, int64_t shift) {
  if (shift >= 0) return ts + static_cast<uint64_t>(shift);
  const uint64_t back = static_cast<uint64_t>(-(shift + 1)) + 1; // -shift without overflow
  return ts > back ? ts - back : 0;
}

/// The input's measurements, in time order; none without the instant's name
/// among its strings (then no event is read).
std::vector<ClockEstimate> clock_estimates(const ReportReader &reader) {
  uint32_t name = 0, offset_key = 0, error_key = 0;
  const auto &strings = reader.strings();
  for (uint32_t id = 1; id < strings.size(); ++id) {
    if (strings[id] == kClockOffsetName) name = id;
    if (strings[id] == kClockOffsetArg) offset_key = id;
    if (strings[id] == kClockErrorArg) error_key = id;
  }
  std::vector<ClockEstimate> out;
  if (name == 0 || offset_key == 0) return out;
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const prof_event &e = events[i];
      if (e.type != PROF_EVENT_INSTANT || e.name != name || e.args == 0) continue;
      const auto set = reader.args().find(static_cast<uint32_t>(e.args));
      if (!set) continue;
      ClockEstimate estimate{e.ts, 0, 0};
      bool has_offset = false;
      for (const prof_arg &arg : *set) {
        if (arg.key == offset_key && arg.type == PROF_ARG_INT) {
          estimate.offset = arg.value.i;
          has_offset = true;
        }
        if (arg.key == error_key && arg.type == PROF_ARG_UINT) estimate.error = arg.value.u;
      }
      if (has_offset) out.push_back(estimate);
    }
  });
  std::sort(out.begin(), out.end(),
            [](const ClockEstimate &a, const ClockEstimate &b) { return a.at < b.at; });
  return out;
}

// The launcher's rank when the capture recorded one, else the input's position.
std::string label_of(const Header &header, size_t index) {
  const std::string rank = "rank " + (header.rank.empty() ? std::to_string(index) : header.rank);
  return header.host_name.empty() ? rank : header.host_name + " " + rank;
}

std::string labelled(const std::string &name, const std::string &label) {
  return name.empty() ? "[" + label + "]" : name + " [" + label + "]";
}

// Where a cut or damaged input stopped, in one line.
std::string damage_line(const ReportReader &reader, const std::string &path) {
  const std::string events = " (" + std::to_string(reader.event_count()) + " events)";
  const std::string cut = "cut at byte " + std::to_string(reader.file_size());
  const std::string last =
      "its last whole chunk, which ends at byte " + std::to_string(reader.last_whole_chunk_end());
  if (!reader.corrupted())
    return in_quotes(path) + " is " + cut + ": merged up to " + last + events;
  const size_t damaged = reader.corrupted_offsets().size();
  std::string line = in_quotes(path) + " has " + std::to_string(damaged) +
                     (damaged == 1 ? " damaged chunk" : " damaged chunks") +
                     ", the first at offset " + std::to_string(reader.corrupted_offsets().front());
  if (reader.truncated()) line += ", and is " + cut + " after " + last;
  return line + ": merged the rest" + events;
}

void open_input(ReportReader &reader, const std::string &path) {
  if (!reader.open(path))
    throw MergeInputError(reader.problems().empty() ? "cannot read report " + in_quotes(path)
                                                    : reader.problems().back());
}

Header merged_header(const std::vector<Header> &headers, const MergePlan &plan) {
  Header out;
  out.session_name = "merged";
  out.argv = headers.front().argv;
  out.command_display = headers.front().command_display + " [merged from " +
                        std::to_string(headers.size()) +
                        (headers.size() == 1 ? " report]" : " reports]");
  std::vector<std::string> hosts;
  out.session_start_ns = std::numeric_limits<uint64_t>::max();
  for (size_t i = 0; i < headers.size(); ++i) {
    const Header &h = headers[i];
    out.pids.insert(out.pids.end(), h.pids.begin(), h.pids.end());
    if (!h.host_name.empty() && std::find(hosts.begin(), hosts.end(), h.host_name) == hosts.end())
      hosts.push_back(h.host_name);
    for (const PluginRecord &plugin : h.plugins)
      if (std::find(out.plugins.begin(), out.plugins.end(), plugin) == out.plugins.end())
        out.plugins.push_back(plugin);
    out.session_start_ns =
        std::min(out.session_start_ns,
                 shifted(h.session_start_ns, shift_at(plan.inputs[i], h.session_start_ns)));
  }
  for (const std::string &host : hosts)
    out.host_name += (out.host_name.empty() ? "" : ",") + host;
  out.clock_anchor = headers[plan.reference].clock_anchor;
  return out;
}

/// Which capture a report is of: its parts (a split by process) share the
/// host and the clock anchor, taken once when the capture started.
using CaptureKey = std::tuple<std::string, uint64_t, uint64_t>;

std::optional<CaptureKey> capture_of(const Header &header) {
  if (!has_anchor(header)) return std::nullopt;
  return CaptureKey{header.host_name, header.clock_anchor.realtime_ns,
                    header.clock_anchor.monotonic_ns};
}

/// What makes two events on one shared track the same event.
using SharedEventKey =
    std::tuple<uint32_t, uint8_t, uint64_t, uint64_t, uint32_t, uint64_t, uint64_t>;

// Maps the ids of each input in turn onto the ids of the one output and
// writes its records and events there. A track the input shares with the
// other parts of its capture (PROF_TRACK_SHARED, as a split writes it) is
// written once: a later part's copy maps onto it, and its events that the
// output has already are left out.
class MergeWriter {
public:
  explicit MergeWriter(ReportWriter &writer) : writer_(writer) { string_ids_.emplace("", 0); }

  /// Writes one input: its records first, then its events batch by batch,
  /// then its drops. `batch_done` gets the events of each batch.
  void add(const ReportReader &reader, const MergeInput &input, size_t index,
           const std::function<void(size_t)> &batch_done);
  Footer footer() const;

private:
  uint32_t string_id(const std::string &text);
  uint32_t mapped_string(uint32_t id) const { return id < strings_.size() ? strings_[id] : 0; }
  uint32_t clock_id(uint32_t id);
  uint32_t track_id(uint32_t id);
  void write_strings(const ReportReader &reader);
  void write_clocks(const ReportReader &reader);
  void write_tracks(const ReportReader &reader);
  void write_stacks(const ReportReader &reader);
  void write_args(const ReportReader &reader);
  void write_events(const ReportReader &reader, size_t index,
                    const std::function<void(size_t)> &batch_done);
  void write_drops(const ReportReader &reader);

  ReportWriter &writer_;
  std::unordered_map<std::string, uint32_t> string_ids_; // every text written, once
  std::vector<std::string_view> new_texts_;              // added to string_ids_, not yet written
  uint32_t next_string_ = 1, next_track_ = 1, next_stack_ = 1, next_args_ = 1, next_clock_ = 1,
           next_ring_ = 0;
  std::map<uint32_t, uint64_t> cause_totals_; // by cause ring, over every input

  // The input being written: its ids to the output's.
  std::string label_;
  MergeInput input_;
  int64_t shift(uint64_t ts) const { return shift_at(input_, ts); }
  std::vector<uint32_t> strings_;
  std::unordered_map<uint32_t, uint32_t> tracks_, stacks_, args_, clocks_;
  std::vector<TrackRecord> undeclared_; // tracks met only in events, not yet written
  std::vector<prof_event> batch_;
  std::optional<CaptureKey> capture_;

  // Over every input: the shared tracks written, by capture and input id,
  // and the events written on them.
  std::map<std::tuple<CaptureKey, uint32_t>, uint32_t> shared_tracks_;
  std::unordered_set<uint32_t> shared_outputs_;
  std::set<SharedEventKey> shared_events_;

  uint64_t end_ns_ = 0;
  uint64_t dropped_ = 0;
  std::optional<Footer> failed_; // the first input whose application failed
};

void MergeWriter::add(const ReportReader &reader, const MergeInput &input, size_t index,
                      const std::function<void(size_t)> &batch_done) {
  label_ = input.label;
  input_ = input;
  capture_ = capture_of(reader.header());
  tracks_.clear();
  stacks_.clear();
  args_.clear();
  clocks_.clear();
  write_strings(reader);
  write_clocks(reader);
  write_tracks(reader);
  write_stacks(reader);
  write_args(reader);
  if (input.write_events) write_events(reader, index, batch_done);
  write_drops(reader);
  if (const auto &footer = reader.footer()) {
    end_ns_ = std::max(end_ns_, shifted(footer->end_ns, shift(footer->end_ns)));
    if (!failed_ && (footer->exit_status != 0 || footer->killed_by_signal)) failed_ = footer;
  }
}

Footer MergeWriter::footer() const {
  Footer footer;
  if (failed_) {
    footer.exit_status = failed_->exit_status;
    footer.killed_by_signal = failed_->killed_by_signal;
    footer.signal = failed_->signal;
  }
  footer.end_ns = end_ns_;
  footer.dropped = dropped_;
  return footer;
}

uint32_t MergeWriter::string_id(const std::string &text) {
  const auto [it, added] = string_ids_.try_emplace(text, next_string_);
  if (added) {
    ++next_string_;
    new_texts_.push_back(it->first); // keys of an unordered_map never move
  }
  return it->second;
}

uint32_t MergeWriter::clock_id(uint32_t id) {
  if (id == PROF_CLOCK_SESSION) return PROF_CLOCK_SESSION;
  const auto [it, added] = clocks_.try_emplace(id, next_clock_);
  if (added) ++next_clock_;
  return it->second;
}

uint32_t MergeWriter::track_id(uint32_t id) {
  if (id == 0) return 0;
  const auto [it, added] = tracks_.try_emplace(id, next_track_);
  if (added) {
    // Events on a track the report never declared keep a track of their own.
    TrackRecord record;
    record.id = next_track_++;
    record.name = labelled("track " + std::to_string(id), label_);
    undeclared_.push_back(std::move(record));
  }
  return it->second;
}

void MergeWriter::write_strings(const ReportReader &reader) {
  const uint32_t first = next_string_;
  strings_.assign(reader.strings().size(), 0);
  for (size_t id = 1; id < reader.strings().size(); ++id)
    strings_[id] = string_id(reader.strings()[id]);
  if (!new_texts_.empty()) writer_.add_strings(first, new_texts_);
  new_texts_.clear();
}

void MergeWriter::write_clocks(const ReportReader &reader) {
  std::vector<ClockDomainRecord> records;
  for (const auto &[id, clock] : reader.clock_domains()) {
    if (id == PROF_CLOCK_SESSION) continue;
    ClockDomainRecord record{clock_id(id), labelled(clock.name, label_), clock.frequency_hz, {}};
    for (const ClockCalibration &pair : clock.calibration)
      record.calibration.push_back(
          {pair.domain_ticks, shifted(pair.session_ns, shift(pair.session_ns))});
    records.push_back(std::move(record));
  }
  if (!records.empty()) writer_.add_clock_domains(records);
}

void MergeWriter::write_tracks(const ReportReader &reader) {
  std::unordered_set<uint32_t> written_before;
  for (const auto &[id, track] : reader.tracks()) {
    if (id == 0) continue;
    if (!capture_ || (track.flags & PROF_TRACK_SHARED) == 0) {
      tracks_.emplace(id, next_track_++);
      continue;
    }
    const auto [shared, added] = shared_tracks_.try_emplace({*capture_, id}, next_track_);
    if (added) {
      ++next_track_;
      shared_outputs_.insert(shared->second);
    } else {
      written_before.insert(id);
    }
    tracks_.emplace(id, shared->second);
  }
  std::vector<TrackRecord> records;
  records.reserve(reader.tracks().size());
  for (const auto &[id, track] : reader.tracks()) {
    if (id == 0 || written_before.contains(id)) continue;
    TrackRecord record = track;
    record.id = tracks_.at(id);
    const auto parent = tracks_.find(track.parent);
    record.parent = parent == tracks_.end() ? 0 : parent->second;
    record.clock = clock_id(track.clock);
    record.name = merged_track_name(track, record.parent != 0, label_);
    records.push_back(std::move(record));
  }
  if (!records.empty()) writer_.add_tracks(records);
}

void MergeWriter::write_stacks(const ReportReader &reader) {
  stacks_.emplace(0, 0);
  std::vector<StackRecord> records;
  for (const auto &[id, stack] : reader.stacks()) {
    if (id == 0) continue;
    StackRecord record{next_stack_++, {}};
    stacks_.emplace(id, record.id);
    record.frames.reserve(stack.frames.size());
    for (const uint32_t frame : stack.frames)
      record.frames.push_back(mapped_string(frame));
    records.push_back(std::move(record));
  }
  if (!records.empty()) writer_.add_stacks(records);
}

void MergeWriter::write_args(const ReportReader &reader) {
  std::vector<ArgsRecord> records;
  for (const auto &[id, set] : reader.args()) {
    ArgsRecord record{next_args_++, std::vector<prof_arg>(set.begin(), set.end())};
    args_.emplace(id, record.id);
    for (prof_arg &a : record.args) {
      a.key = mapped_string(a.key);
      if (a.type == PROF_ARG_STRING) a.value.u = mapped_string(a.value.s);
      if (a.type == PROF_ARG_STACK) {
        const auto stack = stacks_.find(static_cast<uint32_t>(a.value.u));
        a.value.u = stack != stacks_.end() ? stack->second : 0;
      }
    }
    records.push_back(std::move(record));
  }
  if (!records.empty()) writer_.add_args(records);
}

void MergeWriter::write_events(const ReportReader &reader, size_t index,
                               const std::function<void(size_t)> &batch_done) {
  const uint64_t tag = static_cast<uint64_t>(index) << 48;
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    batch_.assign(events, events + count);
    size_t kept = 0;
    for (prof_event e : batch_) {
      const uint64_t input_id = e.id; // the same in every part of a capture
      e.track = track_id(e.track);
      e.name = mapped_string(e.name);
      e.category = mapped_string(e.category);
      if ((e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT) && e.args != 0) {
        const auto set = args_.find(static_cast<uint32_t>(e.args));
        e.args = set != args_.end() ? set->second : 0;
      }
      if (e.type == PROF_EVENT_SAMPLE) {
        const auto stack = stacks_.find(static_cast<uint32_t>(e.id));
        e.id = e.id <= UINT32_MAX && stack != stacks_.end() ? stack->second : 0;
      } else if (e.id != 0) {
        e.id ^= tag;
      }
      e.ts = shifted(e.ts, shift(e.ts));
      end_ns_ = std::max(end_ns_, e.ts + e.duration);
      if (shared_outputs_.contains(e.track)) {
        uint64_t value = 0;
        if (e.type == PROF_EVENT_COUNTER) std::memcpy(&value, &e.value, sizeof value);
        const SharedEventKey key{e.track, e.type, e.ts, e.duration, e.name, input_id, value};
        if (!shared_events_.insert(key).second) continue; // another part of its capture had it
      }
      batch_[kept++] = e;
    }
    batch_.resize(kept);
    if (!undeclared_.empty()) {
      writer_.add_tracks(undeclared_);
      undeclared_.clear();
    }
    writer_.add_events(batch_.data(), batch_.size());
    if (batch_done) batch_done(count);
  });
}

void MergeWriter::write_drops(const ReportReader &reader) {
  std::vector<DropRecord> records;
  for (const auto &[ring, drop] : reader.drops()) {
    if (is_cause_ring(ring)) { // one running total per cause over every input
      uint64_t &total = cause_totals_[ring];
      total += drop.dropped;
      records.push_back(DropRecord{ring, 0, total});
      continue;
    }
    records.push_back({next_ring_++, drop.tid, drop.dropped});
    dropped_ += drop.dropped;
  }
  if (!records.empty()) writer_.add_drops(records);
}

// A file removed at the end of the scope unless kept.
struct TempFile {
  std::string path;
  bool keep = false;
  ~TempFile() {
    std::error_code ec;
    if (!keep) fs::remove(path, ec);
  }
};

} // namespace

int64_t shift_at(const MergeInput &input, uint64_t ts) {
  if (input.drift == 0) return input.shift_ns;
  return input.shift_ns + std::llround(input.drift * (static_cast<double>(ts) -
                                                      static_cast<double>(input.drift_origin)));
}

uint64_t merged_time(const MergeInput &input, uint64_t ts) {
  return shifted(ts, shift_at(input, ts));
}

uint64_t MergePlan::events() const {
  uint64_t total = 0;
  for (const MergeInput &input : inputs)
    total += input.events;
  return total;
}

std::string merged_track_name(const TrackRecord &track, bool has_parent, const std::string &label) {
  // Each input's processes and devices stay its own, and say whose they are.
  if (!has_parent || track.kind == PROF_TRACK_PROCESS || track.kind == PROF_TRACK_DEVICE)
    return labelled(track.name, label);
  return track.name;
}

MergeInputFacts merge_input_facts(const ReportReader &reader, const std::string &path) {
  MergeInputFacts facts;
  facts.path = path;
  facts.header = reader.header();
  facts.estimates = clock_estimates(reader);
  facts.status = reader.status();
  facts.events = reader.event_count();
  facts.dropped = reader.total_dropped();
  if (reader.truncated() || reader.corrupted()) facts.damage = damage_line(reader, path);
  return facts;
}

MergePlan plan_merge(const std::vector<std::string> &paths) {
  if (paths.empty()) throw MergeInputError("no reports to merge");
  std::vector<MergeInputFacts> facts;
  for (const std::string &path : paths) {
    ReportReader reader;
    open_input(reader, path);
    facts.push_back(merge_input_facts(reader, path));
  }
  return plan_merge(std::move(facts), [&paths](size_t input, size_t enough) {
    ReportReader reader;
    return reader.open(paths[input]) ? collective_times(reader, enough) : CollectiveTimes{};
  });
}

MergePlan plan_merge(std::vector<MergeInputFacts> facts, const CollectiveTimesOf &times) {
  if (facts.empty()) throw MergeInputError("no reports to merge");
  MergePlan plan;
  std::vector<Header> headers;
  std::vector<std::vector<ClockEstimate>> estimates;
  for (size_t i = 0; i < facts.size(); ++i) {
    MergeInputFacts &input_facts = facts[i];
    const Header &header = input_facts.header;
    MergeInput input;
    input.path = input_facts.path;
    input.label = label_of(header, i);
    input.has_anchor = has_anchor(header);
    input.status = input_facts.status;
    input.events = input_facts.events;
    input.dropped = input_facts.dropped;
    plan.inputs.push_back(std::move(input));
    if (!input_facts.damage.empty()) plan.warnings.push_back(input_facts.damage);
    // A merge among its own inputs (a folder merged into itself before)
    // would count their events twice.
    if (header.session_name == "merged" && facts.size() > 1)
      plan.warnings.push_back(in_quotes(input_facts.path) + " is itself a merge (" +
                              header.command_display +
                              "): its processes may be in the other inputs too");
    estimates.push_back(std::move(input_facts.estimates));
    headers.push_back(std::move(input_facts.header));
  }
  // The earliest-started monotonic clock: every other input moves forward onto it.
  bool found = false;
  for (size_t i = 0; i < headers.size(); ++i) {
    if (!plan.inputs[i].has_anchor) continue;
    if (!found ||
        clock_origin(headers[i].clock_anchor) < clock_origin(headers[plan.reference].clock_anchor))
      plan.reference = i;
    found = true;
  }
  for (size_t i = 0; i < headers.size(); ++i)
    if (found && plan.inputs[i].has_anchor)
      plan.inputs[i].shift_ns = clock_origin(headers[i].clock_anchor) -
                                clock_origin(headers[plan.reference].clock_anchor);
  // Ranks measured against rank 0: onto rank 0's clock, then as rank 0 goes.
  std::vector<bool> measured(headers.size(), false);
  const auto rank0 =
      std::find_if(headers.begin(), headers.end(), [](const Header &h) { return h.rank == "0"; });
  for (size_t i = 0; i < headers.size() && rank0 != headers.end(); ++i) {
    const size_t zero = static_cast<size_t>(rank0 - headers.begin());
    if (i == zero || estimates[i].empty()) continue;
    measured[i] = true;
    const ClockEstimate &first = estimates[i].front(), &last = estimates[i].back();
    MergeInput &input = plan.inputs[i];
    // A drift only where the offset moved more than the two errors allow;
    // else one offset, the mean.
    const int64_t moved = last.offset - first.offset;
    const bool drifts = last.at > first.at && static_cast<uint64_t>(moved < 0 ? -moved : moved) >
                                                  first.error + last.error;
    input.shift_ns =
        plan.inputs[zero].shift_ns + (drifts ? first.offset : first.offset + moved / 2);
    input.drift_origin = first.at;
    input.drift = drifts ? static_cast<double>(moved) / static_cast<double>(last.at - first.at) : 0;
    uint64_t error = 0;
    for (const ClockEstimate &estimate : estimates[i])
      error = std::max(error, estimate.error);
    char drift[32];
    std::snprintf(drift, sizeof drift, "%.3f", input.drift * 1e6);
    plan.notes.push_back(input.label + ": aligned with rank 0 by " +
                         std::to_string(estimates[i].size()) + " clock measurements: offset " +
                         std::to_string(input.shift_ns - plan.inputs[zero].shift_ns) +
                         " ns (error at most " + std::to_string(error) + " ns), drift " + drift +
                         " us/s");
  }
  const AlignmentRecord aligned = align_on_collectives(headers, measured, plan, times);
  plan.header = merged_header(headers, plan);
  if (!aligned.empty()) plan.header.plugins.push_back({kClockAlignmentRecord, "1", aligned});
  return plan;
}

MergeResult write_merge(const MergePlan &plan, const std::string &output, bool force_overwrite,
                        const MergeProgress &progress) {
  std::error_code ec;
  const auto refuse_existing = [&] {
    if (!force_overwrite && fs::exists(fs::symlink_status(output, ec)))
      throw ReportError("output file " + in_quotes(output) +
                        " already exists (use --force-overwrite)");
  };
  refuse_existing();
  TempFile temp{output + ".merge-" + std::to_string(::getpid()) + ".tmp"};
  MergeResult result;
  {
    ReportWriter writer;
    writer.open(temp.path, plan.header, true);
    MergeWriter merge(writer);
    const uint64_t total = plan.events();
    uint64_t done = 0;
    for (size_t i = 0; i < plan.inputs.size(); ++i) {
      ReportReader reader;
      open_input(reader, plan.inputs[i].path);
      merge.add(reader, plan.inputs[i], i, [&](size_t count) {
        done += count;
        if (progress) progress(std::min(done, total), total);
      });
    }
    const Footer footer = merge.footer();
    result.events = writer.events_written();
    result.dropped = footer.dropped;
    writer.finish(footer);
  }
  refuse_existing();
  fs::rename(temp.path, output, ec);
  if (ec)
    throw ReportError("cannot rename " + in_quotes(temp.path) + " to " + in_quotes(output) + ": " +
                      ec.message());
  temp.keep = true;
  return result;
}

} // namespace prof::report
