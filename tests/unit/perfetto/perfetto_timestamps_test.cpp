// Timestamps written as deltas on the sequence's incremental clock: the
// exporter's output is decoded with protoc, every packet's time is resolved
// the way trace_processor resolves it (packet_times.hpp), and every event's
// time is compared with the input, for batches in order, batches that go
// back in time, large batches ordered on the second thread, and every kind
// of event.
#include "perfetto_exporter.hpp"

#include "tests/support/decoded_trace.hpp"
#include "tests/support/exporter_test.hpp"
#include "tests/support/trace_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace prof::perfetto {
namespace {

using testing::FakeExportHost;
using testing::TextNode;
using testing::TraceModel;

class PerfettoTimestampsTest : public testing::ExporterTest<PerfettoExporter> {
protected:
  PerfettoTimestampsTest() : ExporterTest("out.perfetto-trace") {}
};

/// One packet as the reader sees it: track, what it is, its name, its time.
struct TimedPacket {
  std::string track;
  std::string what; ///< TrackEvent type, or "sample"
  std::string name; ///< event name, counter value, or sample pid/tid
  uint64_t ts = 0;
  auto operator<=>(const TimedPacket &) const = default;
};

std::ostream &operator<<(std::ostream &os, const TimedPacket &p) {
  return os << "{" << p.track << " " << p.what << " " << p.name << " @" << p.ts << "}";
}

/// Builds batches and, beside them, the packets the reader must see.
struct Input {
  FakeExportHost host;
  std::vector<std::vector<prof_event>> batches;
  std::vector<TimedPacket> expected;
  std::map<prof_track_id, std::string> track_names;

  prof_track_id track(prof_track_kind kind, const std::string &name, prof_track_id parent = 0,
                      int pid = 0, int tid = 0, const char *unit = nullptr) {
    const prof_track_id id =
        unit ? host.add_track(kind, name, parent, pid, tid, -1, std::string(unit))
             : host.add_track(kind, name, parent, pid, tid);
    track_names[id] = name;
    return id;
  }
  void slice(prof_track_id t, const std::string &name, uint64_t ts, uint64_t duration,
             uint64_t correlation = 0) {
    batches.back().push_back(host.slice(t, name, ts, duration, "cat", correlation));
    if (duration == 0) {
      expected.push_back({track_names[t], "TYPE_INSTANT", name, ts});
      return;
    }
    expected.push_back({track_names[t], "TYPE_SLICE_BEGIN", name, ts});
    expected.push_back({track_names[t], "TYPE_SLICE_END", "", ts + duration});
  }
  void instant(prof_track_id t, const std::string &name, uint64_t ts) {
    batches.back().push_back(host.instant(t, name, ts));
    expected.push_back({track_names[t], "TYPE_INSTANT", name, ts});
  }
  void counter(prof_track_id t, uint64_t ts, int64_t value) {
    batches.back().push_back(host.counter(t, ts, static_cast<double>(value)));
    expected.push_back({track_names[t], "TYPE_COUNTER", std::to_string(value), ts});
  }
  void flow(prof_track_id t, uint64_t ts, uint64_t id, prof_flow_phase phase) {
    batches.back().push_back(host.flow(t, ts, id, phase));
    expected.push_back({track_names[t], "TYPE_INSTANT", "flow", ts});
  }
  void sample(prof_track_id t, uint64_t ts, prof_stack_id stack, int pid, int tid) {
    batches.back().push_back(host.sample(t, ts, stack));
    expected.push_back({"", "sample", std::to_string(pid) + "/" + std::to_string(tid), ts});
  }
};

/// What the reader sees: every TrackEvent and PerfSample with its time.
std::vector<TimedPacket> decoded_packets(const TraceModel &model, const TextNode &trace) {
  std::vector<TimedPacket> seen;
  for (const TextNode *p : trace.all("packet")) {
    if (const TextNode *e = p->first("track_event")) {
      const std::string type = e->get("type");
      std::string name;
      if (type == "TYPE_COUNTER")
        name = e->get("counter_value");
      else if (e->has("name_iid"))
        name = model.event_names.at(e->get("name_iid"));
      seen.push_back({model.track_name_by_uuid.at(model.track_uuid(p)), type, name, model.time(p)});
    } else if (const TextNode *s = p->first("perf_sample")) {
      seen.push_back({"", "sample", s->get("pid") + "/" + s->get("tid"), model.time(p)});
    }
  }
  std::sort(seen.begin(), seen.end());
  return seen;
}

/// The reader's view of the clocks is sound: every timestamp resolves, no
/// delta is negative, no snapshot goes back or moves a clock, every packet
/// that relies on incremental state comes after its sequence cleared it, and
/// none carries the flag that would only cost bytes.
void expect_sound_clocks(const TraceModel &model) {
  EXPECT_EQ(model.times.unresolved, 0);
  EXPECT_EQ(model.times.negative_deltas, 0);
  EXPECT_EQ(model.times.clock_went_back, 0);
  EXPECT_EQ(model.times.offset_changed, 0);
  EXPECT_EQ(model.times.before_cleared, 0);
  EXPECT_EQ(model.times.needs_flags, 0);
  EXPECT_EQ(model.unmatched_ends, 0);
  EXPECT_EQ(model.unresolved_iids, 0);
  EXPECT_EQ(model.duplicate_iids, 0);
  EXPECT_EQ(model.conflicting_iids, 0);
}

TEST_F(PerfettoTimestampsTest, EveryEventKeepsItsTimeWhenBatchesGoBackInTime) {
  Input in;
  const prof_track_id process = in.track(PROF_TRACK_PROCESS, "app", 0, 100);
  const prof_track_id thread = in.track(PROF_TRACK_THREAD, "main", process, 100, 101);
  const prof_track_id engine = in.track(PROF_TRACK_ENGINE, "SIP 0");
  const prof_track_id memory = in.track(PROF_TRACK_COUNTER, "memory", 0, 0, 0, "bytes");
  const prof_stack_id stack = in.host.add_stack({"leaf", "root"});
  const uint64_t late = 50'000'000'000; // 50 s: a 6-byte absolute timestamp

  in.batches.emplace_back(); // in order, late in the session
  in.slice(engine, "kernel", late, 20'000, 7);
  in.slice(engine, "kernel", late + 21'000, 3'000);
  in.counter(memory, late + 100, 4096);
  in.instant(thread, "mark", late + 500);
  in.batches.emplace_back(); // earlier than everything before it
  in.slice(thread, "launch", 1'000, 300, 7);
  in.flow(thread, 1'100, 9, PROF_FLOW_BEGIN);
  in.sample(thread, 1'200, stack, 100, 101);
  in.counter(memory, 1'000, 8192);
  in.slice(engine, "zero", 1'000, 0);
  in.batches.emplace_back(); // between the two, unordered inside
  in.flow(engine, late - 10, 9, PROF_FLOW_END);
  in.slice(engine, "copy", late - 5'000, 4'000);
  in.counter(memory, late - 1, 0);
  in.slice(thread, "launch", 2'000, 400);
  in.batches.emplace_back(); // same times again: ties across batches
  in.slice(engine, "kernel", late + 21'000, 3'000);

  ASSERT_TRUE(run(in.host, in.batches)) << ::testing::PrintToString(in.host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  expect_sound_clocks(model);
  std::sort(in.expected.begin(), in.expected.end());
  EXPECT_EQ(decoded_packets(model, trace), in.expected);
  // Each track's events are on a sequence of their own: the engine's, the
  // thread's and the counter's clocks restart where the second batch goes
  // back on them; the third and fourth batches go on from there.
  EXPECT_EQ(model.times.restarts, 3);
}

TEST_F(PerfettoTimestampsTest, LargeShuffledBatchesOnSeveralTracksKeepEveryTime) {
  // Batches past PerfettoExporter::kSortAheadEvents are ordered on the second
  // thread; the tracks drift apart like device engines do, so each batch
  // starts before the one before it ended.
  Input in;
  std::vector<prof_track_id> engines;
  for (int i = 0; i < 4; ++i)
    engines.push_back(in.track(PROF_TRACK_ENGINE, "engine " + std::to_string(i)));
  std::mt19937_64 random(11);
  std::vector<uint64_t> now(engines.size(), 1'000'000'000);
  for (int b = 0; b < 3; ++b) {
    in.batches.emplace_back();
    for (size_t n = 0; n < PerfettoExporter::kSortAheadEvents + 100; ++n) {
      const size_t e = n % engines.size();
      const uint64_t duration = (e + 1) * (1 + random() % 40'000);
      in.slice(engines[e], "k" + std::to_string(random() % 5), now[e], duration, n % 3 ? n : 0);
      now[e] += duration + random() % 5'000;
    }
    std::shuffle(in.batches.back().begin(), in.batches.back().end(), random);
  }
  ASSERT_TRUE(run(in.host, in.batches)) << ::testing::PrintToString(in.host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  expect_sound_clocks(model);
  std::sort(in.expected.begin(), in.expected.end());
  EXPECT_EQ(decoded_packets(model, trace), in.expected);
}

TEST_F(PerfettoTimestampsTest, PacketsInOrderCarryShortDeltasAndNoRestart) {
  FakeExportHost host;
  const prof_track_id t = host.add_track(PROF_TRACK_ENGINE, "SIP 0");
  std::vector<prof_event> batch;
  uint64_t ts = 50'000'000'000;
  for (int i = 0; i < 100; ++i, ts += 10'000)
    batch.push_back(host.slice(t, "kernel", ts, 5'000, "cat"));
  ASSERT_TRUE(run(host, {batch}));
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  expect_sound_clocks(model);
  EXPECT_EQ(model.times.snapshots, 2); // first packets: the main and the track's sequence
  EXPECT_EQ(model.times.restarts, 0);
  int absolute = 0, deltas = 0;
  for (const TextNode *p : trace.all("packet")) {
    if (!p->has("track_event")) continue;
    EXPECT_FALSE(p->has("timestamp_clock_id")); // the sequence's default clock
    EXPECT_FALSE(p->has("sequence_flags"));     // only the first packet clears
    ++(std::stoull(p->get("timestamp")) < 16384 ? deltas : absolute);
  }
  EXPECT_EQ(absolute, 1); // the first packet, a delta from the snapshot's 0
  EXPECT_EQ(deltas, 199);
  const auto first = trace.all("packet").front();
  EXPECT_EQ(first->get("sequence_flags"), "1"); // SEQ_INCREMENTAL_STATE_CLEARED
  EXPECT_EQ(first->first("trace_packet_defaults")->get("timestamp_clock_id"), "64");
  const auto clocks = first->first("clock_snapshot")->all("clocks");
  ASSERT_EQ(clocks.size(), 2u);
  EXPECT_EQ(clocks[0]->get("clock_id"), "64");
  EXPECT_EQ(clocks[0]->get("is_incremental"), "true");
  EXPECT_EQ(clocks[1]->get("clock_id"), "6"); // BOOTTIME, at the same value
  EXPECT_EQ(clocks[0]->get("timestamp"), clocks[1]->get("timestamp"));
}

} // namespace
} // namespace prof::perfetto
