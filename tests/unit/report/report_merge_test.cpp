// Merging reports: one timeline through the realtime anchors, one id space,
// each input's processes kept apart and labelled, damaged inputs merged up
// to their damage, unreadable ones refused before anything is written.
#include "core/report/chunk.hpp"
#include "core/report/report_merge.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_writer.hpp"
#include "tests/support/report_test_support.hpp"

#include <prof/event.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace prof::report {
namespace {

using namespace prof::report::testing;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr uint64_t kSecond = 1'000'000'000ull;
constexpr uint64_t kDay = 86'400 * kSecond;
// 2023-11-14 22:13:20 UTC
constexpr uint64_t kRealtime = 1'700'000'000 * kSecond;

// What one rank's report holds; ids are the rank's own.
struct RankReport {
  std::string host = "host1";
  std::string rank; // the launcher's, "" when none
  int32_t pid = 100;
  ClockAnchor anchor;
  uint64_t session_start = 0;
  std::vector<std::string_view> strings; // ids 1, 2, ...
  std::vector<TrackRecord> tracks;
  std::vector<StackRecord> stacks;
  std::vector<ArgsRecord> args;
  std::vector<ClockDomainRecord> clocks;
  std::vector<DropRecord> drops;
  std::vector<prof_event> events;
  size_t events_per_chunk = 65536;
};

std::vector<TrackRecord> process_tracks(int32_t pid) {
  return {{1, PROF_TRACK_PROCESS, 0, "train.py", pid, 0, -1, "", PROF_CLOCK_SESSION},
          {2, PROF_TRACK_THREAD, 1, "main", pid, pid + 1, -1, "", PROF_CLOCK_SESSION},
          {3, PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, "", 2},
          {4, PROF_TRACK_ENGINE, 3, "SIP 0", 0, 0, 0, "", 2}};
}

void write_rank(const std::string &path, const RankReport &rank) {
  Header header;
  header.session_name = std::to_string(rank.pid);
  header.argv = {"python", "train.py"};
  header.command_display = "python train.py";
  header.pids = {rank.pid};
  header.host_name = rank.host;
  header.rank = rank.rank;
  header.plugins = {{"cpu-util", "1.0.0", {{"frequency", "100"}}}};
  header.clock_anchor = rank.anchor;
  header.session_start_ns = rank.session_start;
  ReportWriter writer(WriterOptions{rank.events_per_chunk});
  writer.open(path, header, true);
  if (!rank.strings.empty()) writer.add_strings(1, rank.strings);
  writer.add_tracks(rank.tracks);
  writer.add_stacks(rank.stacks);
  if (!rank.args.empty()) writer.add_args(rank.args);
  writer.add_events(rank.events.data(), rank.events.size());
  writer.add_clock_domains(rank.clocks);
  writer.add_drops(rank.drops);
  uint64_t dropped = 0;
  for (const auto &d : rank.drops)
    if (!is_cause_ring(d.ring)) dropped += d.dropped;
  writer.finish(Footer{rank.session_start + 10 * kSecond, 0, dropped, 0, false, 0});
}

// Wall-clock time of a merged timestamp, through the merged report's anchor.
prof_event with_args(prof_event e, uint64_t args) {
  e.args = args;
  return e;
}

uint64_t realtime_of(const ReportReader &merged, uint64_t ts) {
  const ClockAnchor &a = merged.header().clock_anchor;
  return a.realtime_ns + ts - a.monotonic_ns;
}

const TrackRecord *track_named(const ReportReader &reader, std::string_view name) {
  for (const auto &[id, track] : reader.tracks())
    if (track.name == name) return &track;
  return nullptr;
}

std::vector<std::string> files_in(const std::string &folder) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(folder))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

MergeResult merge(const std::vector<std::string> &inputs, const std::string &output) {
  return write_merge(plan_merge(inputs), output, false);
}

// Rank 0 booted 3 days before rank 1; their anchors were read 1 s apart.
struct TwoHosts {
  RankReport early, late;
  TwoHosts() {
    early.host = "host1";
    early.pid = 100;
    early.anchor = {kRealtime, 3 * kDay + 5 * kSecond};
    early.session_start = early.anchor.monotonic_ns - kSecond;
    early.strings = {"step"};
    early.tracks = process_tracks(100);
    // 100 ms after its anchor, 200 ms long.
    early.events = {slice(2, early.anchor.monotonic_ns + kSecond / 10, kSecond / 5, 1, 0, 0)};
    late.host = "host2";
    late.pid = 200;
    late.anchor = {kRealtime + kSecond, 2 * 3600 * kSecond};
    late.session_start = late.anchor.monotonic_ns - kSecond / 2;
    late.strings = {"step"};
    late.tracks = process_tracks(200);
    // 50 ms after its anchor: 950 ms after rank 0's slice.
    late.events = {slice(2, late.anchor.monotonic_ns + kSecond / 20, kSecond / 5, 1, 0, 0)};
  }
};

TEST(ReportMerge, TimelinesMeetThroughTheRealtimeAnchors) {
  ScratchDir dir;
  TwoHosts ranks;
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_rank(dir.file("r1.profrep"), ranks.late);

  for (const bool late_first : {false, true}) {
    SCOPED_TRACE(late_first ? "late host first" : "early host first");
    const std::string out = dir.file(late_first ? "m10.profrep" : "m01.profrep");
    const std::vector<std::string> inputs =
        late_first ? std::vector<std::string>{dir.file("r1.profrep"), dir.file("r0.profrep")}
                   : std::vector<std::string>{dir.file("r0.profrep"), dir.file("r1.profrep")};
    const MergePlan plan = plan_merge(inputs);
    // The clock that started first is kept: nothing moves below zero.
    EXPECT_EQ(plan.reference, late_first ? 1u : 0u);
    EXPECT_EQ(plan.inputs[late_first ? 1 : 0].shift_ns, 0);
    EXPECT_EQ(plan.inputs[late_first ? 0 : 1].shift_ns,
              static_cast<int64_t>(3 * kDay + 5 * kSecond + kSecond - 2 * 3600 * kSecond));
    EXPECT_TRUE(plan.warnings.empty());
    write_merge(plan, out, false);

    ReportReader merged;
    ASSERT_TRUE(merged.open(out)) << merged.problems().back();
    EXPECT_EQ(merged.status(), ReportStatus::complete);
    EXPECT_EQ(merged.header().clock_anchor, ranks.early.anchor);
    // The earliest start, on the merged clock: rank 0 started 1 s before its anchor.
    EXPECT_EQ(merged.header().session_start_ns, ranks.early.anchor.monotonic_ns - kSecond);
    const auto events = merged.read_all_events();
    ASSERT_EQ(events.size(), 2u);
    std::map<int32_t, uint64_t> start_by_pid; // wall-clock start of each rank's slice
    for (const prof_event &e : events) {
      const TrackRecord *thread = merged.track(e.track);
      ASSERT_NE(thread, nullptr);
      start_by_pid[thread->pid] = realtime_of(merged, e.ts);
      EXPECT_EQ(e.duration, kSecond / 5);
    }
    EXPECT_EQ(start_by_pid[100], kRealtime + kSecond / 10);
    EXPECT_EQ(start_by_pid[200], kRealtime + kSecond + kSecond / 20);
    EXPECT_EQ(merged.footer()->end_ns,
              ranks.late.session_start + 10 * kSecond + plan.inputs[late_first ? 0 : 1].shift_ns);
  }
  // A merge among the inputs again (a folder merged into itself before):
  // said, since its processes may be counted twice.
  const MergePlan again =
      plan_merge({dir.file("m01.profrep"), dir.file("r0.profrep"), dir.file("r1.profrep")});
  ASSERT_EQ(again.warnings.size(), 1u);
  EXPECT_EQ(again.warnings[0], "'" + dir.file("m01.profrep") +
                                   "' is itself a merge (python train.py [merged from 2 "
                                   "reports]): its processes may be in the other inputs too");
  EXPECT_TRUE(plan_merge({dir.file("m01.profrep")}).warnings.empty()) << "alone, it is fine";
}

// Two ranks on one machine whose reports' realtime anchors disagree by 50 ms
// (a host clock off): rank 1 measured its clock against rank 0's (the
// instants of prof/rank_clock.hpp), and merge goes by those, with a drift
// when the offset moved more than the errors allow.
TEST(ReportMerge, RanksMeasuredAgainstRankZeroAreAlignedByTheirMeasurements) {
  ScratchDir dir;
  const auto rank_report = [](const std::string &rank, int32_t pid, uint64_t realtime_off) {
    RankReport r;
    r.rank = rank;
    r.pid = pid;
    r.anchor = {kRealtime + realtime_off, 1000 * kSecond};
    r.session_start = 1000 * kSecond;
    r.strings = {"train.py", "main", "step", "clock offset to rank 0", "offset_ns", "error_ns"};
    r.tracks = {{1, PROF_TRACK_PROCESS, 0, "train.py", pid, 0, -1, "", PROF_CLOCK_SESSION},
                {2, PROF_TRACK_THREAD, 1, "main", pid, pid, -1, "", PROF_CLOCK_SESSION}};
    r.events = {slice(2, 1001 * kSecond, kSecond / 10, 3)};
    return r;
  };
  // Rank 1's monotonic clock runs 2 s behind rank 0's at its first
  // measurement and 2 s - 100 us at its second, 10 s later.
  RankReport zero = rank_report("0", 100, 0), one = rank_report("1", 200, 50'000'000);
  const int64_t first = 2 * static_cast<int64_t>(kSecond), second = first - 100'000;
  one.args = {
      {1, {prof_arg{5, PROF_ARG_INT, {.i = first}}, prof_arg{6, PROF_ARG_UINT, {.u = 5000}}}},
      {2, {prof_arg{5, PROF_ARG_INT, {.i = second}}, prof_arg{6, PROF_ARG_UINT, {.u = 5000}}}}};
  one.events.push_back(with_args(instant(1, 1000 * kSecond, 4), 1));
  one.events.push_back(with_args(instant(1, 1010 * kSecond, 4), 2));
  one.events.push_back(slice(2, 1005 * kSecond, kSecond / 10, 3)); // halfway
  write_rank(dir.file("r0.profrep"), zero);
  write_rank(dir.file("r1.profrep"), one);
  const MergePlan plan = plan_merge({dir.file("r0.profrep"), dir.file("r1.profrep")});
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("rank 1: aligned with rank 0 by 2 clock measurements"),
            std::string::npos)
      << plan.notes[0];
  EXPECT_EQ(plan.inputs[1].shift_ns, plan.inputs[0].shift_ns + first);
  EXPECT_NEAR(plan.inputs[1].drift, -1e-5, 1e-12); // 100 us in 10 s
  write_merge(plan, dir.file("m.profrep"), false);
  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  std::vector<uint64_t> rank1_steps;
  for (const prof_event &e : merged.read_all_events())
    if (e.type == PROF_EVENT_SLICE && merged.track(e.track)->pid == 200)
      rank1_steps.push_back(e.ts);
  ASSERT_EQ(rank1_steps.size(), 2u);
  std::sort(rank1_steps.begin(), rank1_steps.end());
  const uint64_t zero_shift = static_cast<uint64_t>(plan.inputs[0].shift_ns);
  // At 1001 s: 2 s - 10 us ahead; at 1005 s: 2 s - 50 us ahead, on rank 0's clock.
  EXPECT_EQ(rank1_steps[0], 1001 * kSecond + 2 * kSecond - 10'000 + zero_shift);
  EXPECT_EQ(rank1_steps[1], 1005 * kSecond + 2 * kSecond - 50'000 + zero_shift);

  // Offsets that moved less than their errors: one offset, their mean, no drift.
  one.args[1].args[0].value.i = first + 4000;
  write_rank(dir.file("r1.profrep"), one);
  const MergePlan steady = plan_merge({dir.file("r0.profrep"), dir.file("r1.profrep")});
  EXPECT_EQ(steady.inputs[1].drift, 0.0);
  EXPECT_EQ(steady.inputs[1].shift_ns, steady.inputs[0].shift_ns + first + 2000);

  // Without rank 0's report there is nothing to align with: the anchors.
  const MergePlan alone = plan_merge({dir.file("r1.profrep")});
  EXPECT_TRUE(alone.notes.empty());
  EXPECT_EQ(alone.inputs[0].drift, 0.0);
}

TEST(ReportMerge, IdsAreRemappedIntoOneSpace) {
  ScratchDir dir;
  TwoHosts ranks;
  ranks.early.strings = {"matmul", "kernel"};
  ranks.early.stacks = {{5, {1, 2}}};
  ranks.early.args = {{3, {prof::arg_uint(2, 64), prof::arg_string(1, 2), prof::arg_stack(1, 5)}}};
  ranks.early.clocks = {{2, "gcu0", 1.0e9, {{0, 3 * kDay}}}};
  ranks.early.drops = {
      {0, 101, 3}, {kInvalidEventsRing, 0, 2}, {cause_ring(PROF_DROP_DEVICE_BUFFER_FULL), 0, 30}};
  ranks.early.events = {with_args(slice(4, 3 * kDay + 10, 5, 1, 2, 77), 3),
                        sample(2, 3 * kDay + 20, 5), flow(2, 3 * kDay + 30, 9, PROF_FLOW_BEGIN)};
  ranks.late.strings = {"kernel", "sync"};
  ranks.late.stacks = {{5, {2, 1}}};
  ranks.late.args = {{3, {prof::arg_uint(2, 128), prof::arg_string(1, 2), prof::arg_stack(1, 5)}}};
  ranks.late.clocks = {{2, "gcu0", 1.0e9, {{0, 3600 * kSecond}}}};
  ranks.late.drops = {{0, 201, 4},
                      {1, 202, 5},
                      {kInvalidEventsRing, 0, 1},
                      {cause_ring(PROF_DROP_DEVICE_BUFFER_FULL), 0, 12},
                      {cause_ring(PROF_DROP_KERNEL_LOST), 0, 6}};
  ranks.late.events = {with_args(slice(4, 3 * 3600 * kSecond, 5, 1, 2, 77), 3),
                       sample(2, 3 * 3600 * kSecond, 5),
                       flow(2, 3 * 3600 * kSecond, 9, PROF_FLOW_END)};
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_rank(dir.file("r1.profrep"), ranks.late);
  const MergeResult result =
      merge({dir.file("r0.profrep"), dir.file("r1.profrep")}, dir.file("m.profrep"));
  EXPECT_EQ(result.events, 6u);
  EXPECT_EQ(result.dropped, 12u);

  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  // Equal texts share one id.
  EXPECT_THAT(merged.strings(), ElementsAre("", "matmul", "kernel", "sync"));

  const Header &h = merged.header();
  EXPECT_EQ(h.session_name, "merged");
  EXPECT_EQ(h.pids, (std::vector<int32_t>{100, 200}));
  EXPECT_EQ(h.host_name, "host1,host2");
  EXPECT_EQ(h.argv, (std::vector<std::string>{"python", "train.py"}));
  EXPECT_EQ(h.command_display, "python train.py [merged from 2 reports]");
  ASSERT_EQ(h.plugins.size(), 1u); // the same plugin record, once

  // Each rank's tracks, labelled where they are the rank's own, under their own parents.
  ASSERT_EQ(merged.tracks().size(), 8u);
  const TrackRecord *p0 = track_named(merged, "train.py [host1 rank 0]");
  const TrackRecord *p1 = track_named(merged, "train.py [host2 rank 1]");
  const TrackRecord *d0 = track_named(merged, "GCU 0 [host1 rank 0]");
  const TrackRecord *d1 = track_named(merged, "GCU 0 [host2 rank 1]");
  ASSERT_TRUE(p0 && p1 && d0 && d1);
  EXPECT_EQ(p0->pid, 100);
  EXPECT_EQ(p1->pid, 200);
  std::map<std::pair<std::string, uint32_t>, const TrackRecord *> by_name_parent;
  for (const auto &[id, t] : merged.tracks())
    by_name_parent[{t.name, t.parent}] = &t;
  ASSERT_TRUE(by_name_parent.count({"main", p0->id}) && by_name_parent.count({"main", p1->id}));
  ASSERT_TRUE(by_name_parent.count({"SIP 0", d0->id}) && by_name_parent.count({"SIP 0", d1->id}));
  EXPECT_EQ((by_name_parent[{"main", p1->id}]->pid), 200);
  // Device tracks keep their clock domain, each rank its own.
  EXPECT_NE(d0->clock, d1->clock);
  ASSERT_EQ(merged.clock_domains().size(), 2u);
  EXPECT_EQ(merged.clock_domains().at(d0->clock).name, "gcu0 [host1 rank 0]");
  EXPECT_EQ(merged.clock_domains().at(d1->clock).name, "gcu0 [host2 rank 1]");
  const int64_t shift = static_cast<int64_t>(3 * kDay + 6 * kSecond - 2 * 3600 * kSecond);
  EXPECT_EQ(merged.clock_domains().at(d1->clock).calibration.front().session_ns,
            3600 * kSecond + shift);

  // Events name the same texts, tracks and stacks as before.
  const auto events = merged.read_all_events();
  ASSERT_EQ(events.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE("event " + std::to_string(i));
    const prof_event &e = events[i];
    const bool rank1 = i >= 3;
    const TrackRecord *track = merged.track(e.track);
    ASSERT_NE(track, nullptr);
    if (e.type == PROF_EVENT_SLICE) {
      EXPECT_EQ(track->name, "SIP 0");
      EXPECT_EQ(track->parent, (rank1 ? d1 : d0)->id);
      EXPECT_EQ(merged.string(e.name), rank1 ? "kernel" : "matmul");
      EXPECT_EQ(merged.string(e.category), rank1 ? "sync" : "kernel");
      // Correlation ids of the second input are its own.
      EXPECT_EQ(e.id, rank1 ? (uint64_t{1} << 48 | 77) : 77u);
      // Argument sets are remapped, their keys, string and stack values too.
      const auto set = merged.args().find(static_cast<uint32_t>(e.args));
      ASSERT_TRUE(set.has_value());
      ASSERT_EQ((*set).size(), 3u);
      EXPECT_EQ(merged.string((*set)[0].key), rank1 ? "sync" : "kernel");
      EXPECT_EQ((*set)[0].value.u, rank1 ? 128u : 64u);
      EXPECT_EQ(merged.string((*set)[1].key), rank1 ? "kernel" : "matmul");
      EXPECT_EQ(merged.string((*set)[1].value.s), rank1 ? "sync" : "kernel");
      EXPECT_EQ((*set)[2].type, uint32_t{PROF_ARG_STACK});
      const StackRecord *stack = merged.stack(static_cast<uint32_t>((*set)[2].value.u));
      ASSERT_NE(stack, nullptr);
      ASSERT_EQ(stack->frames.size(), 2u);
      EXPECT_EQ(merged.string(stack->frames[0]), rank1 ? "sync" : "matmul");
    } else if (e.type == PROF_EVENT_SAMPLE) {
      const StackRecord *stack = merged.stack(static_cast<uint32_t>(e.id));
      ASSERT_NE(stack, nullptr);
      std::vector<std::string> frames;
      for (uint32_t f : stack->frames)
        frames.emplace_back(merged.string(f));
      EXPECT_EQ(frames, rank1 ? (std::vector<std::string>{"sync", "kernel"})
                              : (std::vector<std::string>{"matmul", "kernel"}));
    } else {
      EXPECT_EQ(e.type, PROF_EVENT_FLOW);
      EXPECT_EQ(e.id, rank1 ? (uint64_t{1} << 48 | 9) : 9u);
    }
  }
  // Drops: summed, and each ring of each input kept; every other cause
  // summed apart, under its own record.
  EXPECT_EQ(merged.total_dropped(), 12u);
  EXPECT_EQ(merged.footer()->dropped, 12u);
  EXPECT_EQ(merged.dropped(PROF_DROP_INVALID_EVENT), 3u);
  EXPECT_EQ(merged.dropped(PROF_DROP_DEVICE_BUFFER_FULL), 42u);
  EXPECT_EQ(merged.dropped(PROF_DROP_KERNEL_LOST), 6u);
  EXPECT_EQ(merged.dropped(PROF_DROP_CATALOG_FULL), 0u);
  std::vector<std::pair<int32_t, uint64_t>> drops;
  for (const auto &[ring, d] : merged.drops())
    if (!is_cause_ring(ring)) drops.emplace_back(d.tid, d.dropped);
  EXPECT_THAT(drops, UnorderedElementsAre(std::pair<int32_t, uint64_t>{101, 3},
                                          std::pair<int32_t, uint64_t>{201, 4},
                                          std::pair<int32_t, uint64_t>{202, 5}));
}

TEST(ReportMerge, CutInputIsMergedUpToItsDamageWithAWarning) {
  ScratchDir dir;
  TwoHosts ranks;
  ranks.late.events.clear();
  for (uint64_t i = 0; i < 30; ++i)
    ranks.late.events.push_back(instant(2, ranks.late.anchor.monotonic_ns + i, 1, 0));
  ranks.late.events_per_chunk = 10;
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_rank(dir.file("whole.profrep"), ranks.late);
  // Cut inside the third EVENTS chunk: two chunks (20 events) stay whole.
  const auto spans = chunk_spans(dir.file("whole.profrep"));
  std::vector<ChunkSpan> event_chunks;
  for (const auto &s : spans)
    if (s.type == static_cast<uint16_t>(ChunkType::events)) event_chunks.push_back(s);
  ASSERT_EQ(event_chunks.size(), 3u);
  const uint64_t cut = event_chunks[2].offset + 20;
  auto bytes = read_bytes(dir.file("whole.profrep"));
  bytes.resize(cut);
  write_bytes(dir.file("r1.profrep"), bytes);

  const MergePlan plan = plan_merge({dir.file("r0.profrep"), dir.file("r1.profrep")});
  EXPECT_THAT(plan.warnings,
              ElementsAre("'" + dir.file("r1.profrep") + "' is cut at byte " + std::to_string(cut) +
                          ": merged up to its last whole chunk, which ends at byte " +
                          std::to_string(event_chunks[1].end) + " (20 events)"));
  EXPECT_EQ(plan.inputs[1].status, ReportStatus::truncated);
  write_merge(plan, dir.file("m.profrep"), false);
  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  EXPECT_EQ(merged.status(), ReportStatus::complete);
  EXPECT_EQ(merged.event_count(), 21u);
  const auto events = merged.read_all_events();
  EXPECT_EQ(realtime_of(merged, events.back().ts), kRealtime + kSecond + 19);
}

TEST(ReportMerge, DamagedChunkIsSkippedWithOneLine) {
  ScratchDir dir;
  TwoHosts ranks;
  ranks.late.events.clear();
  for (uint64_t i = 0; i < 30; ++i)
    ranks.late.events.push_back(instant(2, ranks.late.anchor.monotonic_ns + i, 1, 0));
  ranks.late.events_per_chunk = 10;
  write_rank(dir.file("r1.profrep"), ranks.late);
  std::vector<ChunkSpan> event_chunks;
  for (const auto &s : chunk_spans(dir.file("r1.profrep")))
    if (s.type == static_cast<uint16_t>(ChunkType::events)) event_chunks.push_back(s);
  ASSERT_EQ(event_chunks.size(), 3u);
  auto bytes = read_bytes(dir.file("r1.profrep"));
  bytes[event_chunks[1].offset + 20] ^= 0xff;
  write_bytes(dir.file("r1.profrep"), bytes);

  const MergePlan plan = plan_merge({dir.file("r1.profrep")});
  ASSERT_EQ(plan.warnings.size(), 1u);
  EXPECT_EQ(plan.warnings[0],
            "'" + dir.file("r1.profrep") + "' has 1 damaged chunk, the first at offset " +
                std::to_string(event_chunks[1].offset) + ": merged the rest (20 events)");
  EXPECT_EQ(write_merge(plan, dir.file("m.profrep"), false).events, 20u);
}

TEST(ReportMerge, UnreadableInputIsAnErrorNamingItAndNothingIsWritten) {
  ScratchDir dir;
  TwoHosts ranks;
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_bytes(dir.file("notes.profrep"), {'h', 'e', 'l', 'l', 'o'});
  const std::string out = dir.file("m.profrep");
  try {
    merge({dir.file("r0.profrep"), dir.file("notes.profrep")}, out);
    FAIL() << "merged a file that is not a report";
  } catch (const MergeInputError &e) {
    EXPECT_EQ(std::string(e.what()),
              "'" + dir.file("notes.profrep") + "' is not a prof report (bad magic)");
  }
  try {
    merge({dir.file("r0.profrep"), dir.file("missing.profrep")}, out);
    FAIL() << "merged a missing file";
  } catch (const MergeInputError &e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot open report '" + dir.file("missing.profrep") + "'"));
  }
  EXPECT_THROW(plan_merge({}), MergeInputError);
  EXPECT_THAT(files_in(dir.file("")), ElementsAre("notes.profrep", "r0.profrep"));
}

TEST(ReportMerge, ExistingOutputIsReplacedOnlyWhenForcedAndNoTemporaryStays) {
  ScratchDir dir;
  TwoHosts ranks;
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_bytes(dir.file("m.profrep"), {'o', 'l', 'd'});
  const MergePlan plan = plan_merge({dir.file("r0.profrep")});
  EXPECT_THROW(write_merge(plan, dir.file("m.profrep"), false), ReportError);
  EXPECT_EQ(read_bytes(dir.file("m.profrep")), (std::vector<uint8_t>{'o', 'l', 'd'}));
  write_merge(plan, dir.file("m.profrep"), true);
  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  EXPECT_EQ(merged.track(1)->name, "train.py [host1 rank 0]");
  EXPECT_THAT(files_in(dir.file("")), ElementsAre("m.profrep", "r0.profrep"));
}

TEST(ReportMerge, InputWithoutAnAnchorNorSharedOperationsIsTakenAsItIsWithAWarning) {
  ScratchDir dir;
  TwoHosts ranks;
  ranks.late.anchor = {};
  write_rank(dir.file("r0.profrep"), ranks.early);
  write_rank(dir.file("r1.profrep"), ranks.late);
  const MergePlan plan = plan_merge({dir.file("r1.profrep"), dir.file("r0.profrep")});
  EXPECT_EQ(plan.reference, 1u);
  EXPECT_EQ(plan.inputs[0].shift_ns, 0);
  EXPECT_FALSE(plan.inputs[0].has_anchor);
  EXPECT_THAT(plan.warnings, ElementsAre("'" + dir.file("r1.profrep") +
                                         "' has no realtime clock anchor and shares no "
                                         "collective operation with a report placed on the "
                                         "timeline: its times are merged unaligned"));
}

// Rank RANK of a job whose all-reduce n (1..30 on communicator "world")
// starts at 1 s + n x 100 ms on the true clock and lasts 10 ms, but for
// operation 7, which waits 300 ms for a late rank: this one with `late`.
// The rank's clock reads true + `offset`.
RankReport collective_rank(const std::string &rank, int64_t offset, bool late = false) {
  RankReport r;
  r.rank = rank;
  r.pid = 100 + std::stoi(rank);
  r.tracks = process_tracks(r.pid);
  r.strings = {"allreduce", "communicator", "world", "sequence"};
  for (uint32_t n = 1; n <= 30; ++n) {
    prof_arg communicator{2, PROF_ARG_STRING, {}};
    communicator.value.s = 3;
    prof_arg sequence{4, PROF_ARG_UINT, {}};
    sequence.value.u = n;
    r.args.push_back({n, {communicator, sequence}});
    const uint64_t start = kSecond + n * kSecond / 10, wait = n == 7 ? 3 * kSecond / 10 : 0;
    const uint64_t begin = start + (late ? wait : 0), end = start + wait + kSecond / 100;
    prof_event e = with_args(
        slice(2, static_cast<uint64_t>(static_cast<int64_t>(begin) + offset), end - begin, 1, 0, 0),
        n);
    e.kind = PROF_CATEGORY_COMMUNICATION;
    r.events.push_back(e);
  }
  return r;
}

// Each operation's end in the merged report, by process label and sequence.
std::map<std::string, std::map<uint64_t, uint64_t>> merged_ends(const ReportReader &merged) {
  std::map<std::string, std::map<uint64_t, uint64_t>> ends;
  merged.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const prof_event &e = events[i];
      if (e.type != PROF_EVENT_SLICE || e.kind != PROF_CATEGORY_COMMUNICATION) continue;
      const auto set = merged.args().find(static_cast<uint32_t>(e.args));
      const auto &thread = merged.tracks().at(e.track);
      const std::string process = merged.tracks().at(thread.parent).name;
      for (const prof_arg &arg : *set)
        if (merged.strings()[arg.key] == "sequence") ends[process][arg.value.u] = e.ts + e.duration;
    }
  });
  return ends;
}

TEST(ReportMerge, RanksWithoutAnAnchorAreAlignedOnTheirCollectiveOperations) {
  ScratchDir dir;
  write_rank(dir.file("r0.profrep"), collective_rank("0", 0));
  write_rank(dir.file("r1.profrep"), collective_rank("1", 40'000'000));
  write_rank(dir.file("r2.profrep"), collective_rank("2", -25'000'000, true));
  const MergePlan plan =
      plan_merge({dir.file("r1.profrep"), dir.file("r0.profrep"), dir.file("r2.profrep")});
  EXPECT_THAT(plan.warnings, ::testing::IsEmpty());
  EXPECT_EQ(plan.reference, 1u) << "rank 0's clock is the timeline's";
  EXPECT_EQ(plan.inputs[0].shift_ns, -40'000'000);
  EXPECT_EQ(plan.inputs[2].shift_ns, 25'000'000) << "the late arrival is not an offset";
  ASSERT_EQ(plan.notes.size(), 2u);
  EXPECT_THAT(plan.notes[0], HasSubstr("host1 rank 1: no realtime clock anchor; aligned with "
                                       "host1 rank 0 on 30 shared collective operations: offset "
                                       "-40.000 ms, error at most 0.000 ms"));
  const auto record =
      std::find_if(plan.header.plugins.begin(), plan.header.plugins.end(),
                   [](const PluginRecord &p) { return p.name == "clock-alignment"; });
  ASSERT_NE(record, plan.header.plugins.end());
  ASSERT_EQ(record->options.size(), 4u);
  EXPECT_EQ(record->options[0], std::make_pair(std::string("reports"), std::string("2")));
  EXPECT_EQ(record->options[2].second,
            "host1_rank_1,with=host1_rank_0,offset_ns=-40000000,error_ns=0,drift_us_per_s=0.000,"
            "operations=30");

  write_merge(plan, dir.file("m.profrep"), false);
  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  const auto ends = merged_ends(merged);
  ASSERT_EQ(ends.size(), 3u);
  for (uint64_t n = 1; n <= 30; ++n) {
    std::set<uint64_t> at;
    for (const auto &[process, by_sequence] : ends)
      at.insert(by_sequence.at(n));
    EXPECT_EQ(at.size(), 1u) << "operation " << n << " ends at one time on every rank";
  }
}

TEST(ReportMerge, HostsWhoseClocksPutOperationsApartAreAlignedOnThem) {
  ScratchDir dir;
  RankReport first = collective_rank("0", 0), second = collective_rank("1", 5 * kSecond);
  first.anchor = second.anchor = {kRealtime, 10 * kSecond};
  second.host = "host2";
  write_rank(dir.file("r0.profrep"), first);
  write_rank(dir.file("r1.profrep"), second);
  const MergePlan plan = plan_merge({dir.file("r0.profrep"), dir.file("r1.profrep")});
  EXPECT_EQ(plan.inputs[1].shift_ns, -5 * static_cast<int64_t>(kSecond));
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_THAT(plan.notes[0], HasSubstr("host2 rank 1: its host's clock left 0 % of its collective "
                                       "operations overlapping host1 rank 0's; moved -5000.000 ms "
                                       "from its realtime anchor, aligned with host1 rank 0"));
}

TEST(ReportMerge, HostsWhoseClocksAgreeKeepTheirAnchors) {
  ScratchDir dir;
  RankReport first = collective_rank("0", 0), second = collective_rank("1", 2'000'000);
  first.anchor = second.anchor = {kRealtime, 10 * kSecond};
  second.host = "host2";
  write_rank(dir.file("r0.profrep"), first);
  write_rank(dir.file("r1.profrep"), second);
  const MergePlan plan = plan_merge({dir.file("r0.profrep"), dir.file("r1.profrep")});
  EXPECT_EQ(plan.inputs[1].shift_ns, 0) << "2 ms apart, the 10 ms operations still overlap";
  EXPECT_THAT(plan.notes, ::testing::IsEmpty());
  for (const PluginRecord &plugin : plan.header.plugins)
    EXPECT_NE(plugin.name, "clock-alignment");
}

TEST(ReportMerge, LabelsCarryTheLaunchersRankWhenRecorded) {
  TwoHosts ranks;
  ranks.early.rank = "7";
  ScratchDir dir;
  write_rank(dir.file("a.profrep"), ranks.early);
  write_rank(dir.file("b.profrep"), ranks.late);
  merge({dir.file("a.profrep"), dir.file("b.profrep")}, dir.file("m.profrep"));
  ReportReader merged;
  ASSERT_TRUE(merged.open(dir.file("m.profrep")));
  EXPECT_NE(track_named(merged, "train.py [host1 rank 7]"), nullptr);
  EXPECT_NE(track_named(merged, "train.py [host2 rank 1]"), nullptr);
}

} // namespace
} // namespace prof::report
