#include "tools/prof/stats/rank_summary.hpp"

#include "core/plugin_host/report_export_view.hpp"
#include "core/report/crc32c.hpp"
#include "core/report/record_codec.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include <prof/byte_codec.hpp>
#include <prof/drop_causes.hpp>
#include <prof/stats/aggregator_wire.hpp>
#include <prof/stats/stats_reports.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace prof::tool {
namespace {

// "PRSM" and the version of what follows: a summary of another version is
// made again, never read.
constexpr uint32_t kMagic = 0x4d535250;
constexpr uint32_t kVersion = 2;

/// The ids the bytes of an aggregator name, gathered by loading them.
struct IdRecorder : stats::WireIds {
  mutable std::set<prof_string_id> strings;
  mutable std::set<prof_stack_id> stacks;
  mutable std::set<prof_args_id> sets;
  prof_string_id string(prof_string_id id) const override {
    if (id != 0) strings.insert(id);
    return id;
  }
  prof_stack_id stack(prof_stack_id id) const override {
    if (id != 0) stacks.insert(id);
    return id;
  }
  prof_args_id args(prof_args_id id) const override {
    if (id != 0) sets.insert(id);
    return id;
  }
};

void put_block(ByteWriter &out, const std::vector<uint8_t> &bytes) {
  out.varint(bytes.size());
  out.bytes(bytes.data(), bytes.size());
}
std::span<const uint8_t> get_block(ByteReader &in) { return in.bytes(in.count()); }

/// The smallest power of two N such that at most `most` of `numbers` are
/// kept at N.
uint64_t stride_for(const std::vector<uint64_t> &numbers, size_t most) {
  uint64_t stride = 1;
  for (;;) {
    const auto kept = std::count_if(numbers.begin(), numbers.end(), [stride](uint64_t number) {
      return kept_operation(number, stride);
    });
    if (static_cast<size_t>(kept) <= most || stride >= (uint64_t{1} << 62)) return stride;
    stride *= 2;
  }
}

void put(ByteWriter &out, const Thinning &thinning) {
  out.varint(thinning.stride);
  out.varint(thinning.left_out);
}
bool get(ByteReader &in, Thinning &thinning) {
  thinning.stride = in.varint();
  thinning.left_out = in.varint();
  return thinning.stride > 0 && (thinning.stride & (thinning.stride - 1)) == 0;
}

} // namespace

const std::vector<std::string> &summary_reports() {
  // Those whose tables are sums by name, process or operation: a summary
  // holds them whole. The ones that need every event or every busy period
  // (timelines, critical paths, memory blocks, call stacks) are not here.
  static const std::vector<std::string> names = {"gcu-activity",
                                                 "gcu-activity-per-device",
                                                 "api",
                                                 "osrt",
                                                 "ranges",
                                                 "nvtx",
                                                 "python-functions",
                                                 "torch-ops",
                                                 "kernels",
                                                 "memcpy-time",
                                                 "memcpy-size",
                                                 "counters",
                                                 "collectives",
                                                 "stragglers",
                                                 "hang",
                                                 "steps",
                                                 "outliers"};
  return names;
}

bool runs_from_summaries(const std::string &name) {
  const auto &names = summary_reports();
  return std::find(names.begin(), names.end(), name) != names.end();
}

stats::StatsScope summary_scope() {
  stats::StatsScope scope = stats::scope_for(summary_reports(), stats::ReportOptions{});
  // The HTML page's charts read these too.
  scope.collectives = scope.communication = scope.steps = true;
  return scope;
}

bool kept_operation(uint64_t sequence, uint64_t stride) {
  // splitmix64's finalizer: every bit of the sequence moves the low bits.
  uint64_t z = sequence + 0x9e3779b97f4a7c15;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  z ^= z >> 31;
  return (z & (stride - 1)) == 0;
}

size_t thin_steps(stats::StatsAggregator &aggregator, uint64_t stride) {
  if (stride <= 1) return 0;
  return aggregator.keep_steps(
      [stride](const stats::StepKey &key) { return kept_operation(key.step, stride); });
}

size_t thin_collective_calls(stats::StatsAggregator &aggregator, uint64_t stride) {
  if (stride <= 1) return 0;
  return aggregator.keep_collective_calls([stride](const stats::CollectiveCall &call) {
    return kept_operation(call.sequence, stride);
  });
}

std::vector<uint8_t> encode_summary(const RankSummary &s) {
  std::vector<uint8_t> bytes;
  ByteWriter out(bytes);
  out.u32(kMagic);
  out.u32(kVersion);
  out.u64(s.report_size);
  out.u64(static_cast<uint64_t>(s.report_mtime_ns));
  std::vector<uint8_t> block;
  report::encode_header(s.facts.header, s.facts.header.format_version, block);
  put_block(out, block);
  out.varint(s.facts.estimates.size());
  for (const report::ClockEstimate &estimate : s.facts.estimates) {
    out.varint(estimate.at);
    out.svarint(estimate.offset);
    out.varint(estimate.error);
  }
  out.u8(static_cast<uint8_t>(s.facts.status));
  out.varint(s.facts.events);
  out.varint(s.facts.dropped);
  out.string(s.facts.damage);
  for (const uint64_t dropped : s.dropped)
    out.varint(dropped);
  out.varint(s.strings.size());
  for (const auto &[id, text] : s.strings) {
    out.varint(id);
    out.string(text);
  }
  block.clear();
  report::encode_tracks(s.tracks, block);
  put_block(out, block);
  block.clear();
  report::encode_track_flags(s.tracks, block);
  put_block(out, block);
  block.clear();
  report::encode_stacks(s.stacks, block);
  put_block(out, block);
  block.clear();
  report::encode_args(s.args, block);
  put_block(out, block);
  put(out, s.collectives);
  put(out, s.steps);
  put_block(out, s.aggregator);
  out.u32(report::crc32c(bytes.data(), bytes.size()));
  return bytes;
}

bool decode_summary(std::span<const uint8_t> bytes, RankSummary &s) {
  if (bytes.size() < 12) return false;
  const auto body = bytes.first(bytes.size() - 4);
  ByteReader check(bytes.last(4));
  if (check.u32() != report::crc32c(body.data(), body.size())) return false;
  ByteReader in(body);
  if (in.u32() != kMagic || in.u32() != kVersion) return false;
  s.report_size = in.u64();
  s.report_mtime_ns = static_cast<int64_t>(in.u64());
  const auto header = get_block(in);
  if (!report::decode_header(header, s.facts.header) ||
      !report::peek_format_version(header, s.facts.header.format_version))
    return false;
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    report::ClockEstimate estimate;
    estimate.at = in.varint();
    estimate.offset = in.svarint();
    estimate.error = in.varint();
    s.facts.estimates.push_back(estimate);
  }
  const uint8_t status = in.u8();
  if (status > static_cast<uint8_t>(report::ReportStatus::corrupted)) return false;
  s.facts.status = static_cast<report::ReportStatus>(status);
  s.facts.events = in.varint();
  s.facts.dropped = in.varint();
  s.facts.damage = in.string();
  for (uint64_t &dropped : s.dropped)
    dropped = in.varint();
  for (size_t n = in.count(); n > 0 && in.ok(); --n) {
    const uint32_t id = in.varint32();
    s.strings.emplace_back(id, in.string());
  }
  std::vector<std::pair<uint32_t, uint32_t>> flags;
  if (!report::decode_tracks(get_block(in), s.tracks) ||
      !report::decode_track_flags(get_block(in), flags) ||
      !report::decode_stacks(get_block(in), s.stacks) ||
      !report::decode_args(get_block(in), s.args))
    return false;
  if (!flags.empty()) {
    const std::map<uint32_t, uint32_t> by_track(flags.begin(), flags.end());
    for (report::TrackRecord &track : s.tracks)
      if (const auto found = by_track.find(track.id); found != by_track.end())
        track.flags = found->second;
  }
  if (!get(in, s.collectives) || !get(in, s.steps)) return false;
  const auto aggregator = get_block(in);
  s.aggregator.assign(aggregator.begin(), aggregator.end());
  return in.ok() && in.at_end();
}

RankSummary make_summary(const std::string &path, uint64_t report_size, int64_t report_mtime_ns,
                         size_t threads) {
  report::ReportReader reader;
  if (!reader.open(path, report::ReadOptions{.check_events = false}))
    throw cli::UsageError("stats: " + (reader.problems().empty()
                                           ? "cannot read report '" + path + "'"
                                           : reader.problems().back()));
  core::ReportExportView view(reader);
  const ExportHost host = view.host();
  const stats::StatsScope scope = summary_scope();
  ScanOptions options;
  options.threads = threads;
  ScanResult scanned = scan_report(reader, host, scope, options);

  RankSummary s;
  s.report_size = report_size;
  s.report_mtime_ns = report_mtime_ns;
  s.facts = report::merge_input_facts(reader, path);
  for (prof_drop_cause cause : kDropCauses)
    s.dropped[cause] = reader.dropped(cause);
  // Bounded: the same operations and steps of every rank, when it has many.
  std::vector<uint64_t> numbers;
  for (const stats::CollectiveCall &call : scanned.aggregator.collective_calls())
    numbers.push_back(call.sequence);
  s.collectives.stride = stride_for(numbers, kSummaryMaxCollectiveCalls);
  s.collectives.left_out = thin_collective_calls(scanned.aggregator, s.collectives.stride);
  numbers.clear();
  for (const auto &[key, span] : scanned.aggregator.steps())
    numbers.push_back(key.step);
  s.steps.stride = stride_for(numbers, kSummaryMaxSteps);
  s.steps.left_out = thin_steps(scanned.aggregator, s.steps.stride);
  s.aggregator = stats::AggregatorWire::save(scanned.aggregator);

  // What the bytes name, found by loading them once.
  IdRecorder named;
  stats::StatsAggregator scratch(host, scope);
  stats::AggregatorWire::load(s.aggregator, scratch, named);
  for (const auto &[id, track] : reader.tracks())
    if (id != 0) s.tracks.push_back(track);
  for (const prof_args_id id : named.sets)
    if (const auto set = reader.args().find(id)) {
      s.args.push_back({id, std::vector<prof_arg>(set->begin(), set->end())});
      for (const prof_arg &arg : *set) {
        named.strings.insert(arg.key);
        if (arg.type == PROF_ARG_STRING) named.strings.insert(arg.value.s);
        if (arg.type == PROF_ARG_STACK && arg.value.u != 0 && arg.value.u <= UINT32_MAX)
          named.stacks.insert(static_cast<prof_stack_id>(arg.value.u));
      }
    }
  for (const prof_stack_id id : named.stacks)
    if (const report::StackRecord *stack = reader.stack(id)) {
      s.stacks.push_back(*stack);
      named.strings.insert(stack->frames.begin(), stack->frames.end());
    }
  const auto &strings = reader.strings();
  for (const prof_string_id id : named.strings)
    if (id < strings.size()) s.strings.emplace_back(id, strings[id]);
  return s;
}

} // namespace prof::tool
