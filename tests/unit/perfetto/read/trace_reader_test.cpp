// The trace reader and emitter on hand-built packets: interning per
// sequence and its clearing, sequence-scoped incremental clocks and clock
// snapshots, slices matched per track, counters, flows and annotations,
// prof's own categories, and refused input.
#include "trace_builder.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace prof::perfetto::testing {
namespace {

namespace te = pf::track_event;
constexpr uint32_t kCleared = pf::packet::kSeqIncrementalStateCleared;
constexpr uint32_t kNeedsState = pf::packet::kSeqNeedsIncrementalState;

/// A process 10 with a thread 11 (uuid 2) and a second thread 12 (uuid 3).
TraceBuilder with_threads() {
  TraceBuilder b;
  b.process(1, 10, "train").thread(2, 10, 11, "main").thread(3, 10, 12, "worker");
  return b;
}

Event slice_begin(uint64_t track, uint64_t name_iid) {
  Event e;
  e.type = te::kTypeSliceBegin;
  e.track = track;
  e.name_iid = name_iid;
  return e;
}
Event slice_end(uint64_t track) {
  Event e;
  e.type = te::kTypeSliceEnd;
  e.track = track;
  return e;
}

TEST(PerfettoTraceReader, InternedNamesAreScopedToTheirSequenceAndCleared) {
  TraceBuilder b = with_threads();
  b.packet(1, 100, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "forward");
    intern(o, pf::interned_data::kEventCategories, 1, "torch");
    o.end_nested();
    Event e = slice_begin(2, 1);
    e.category_iids = {1};
    track_event(o, e);
  });
  // Sequence 2 means another name by iid 1.
  b.packet(2, 110, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "load");
    o.end_nested();
    Event e;
    e.track = 3;
    e.name_iid = 1;
    track_event(o, e);
  });
  b.packet(1, 200, kNeedsState, [](ProtoWriter &o) { track_event(o, slice_end(2)); });
  // Cleared: iid 1 is "backward" from here on.
  b.packet(1, 300, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "backward");
    o.end_nested();
    track_event(o, slice_begin(2, 1));
  });
  b.packet(1, 400, kNeedsState, [](ProtoWriter &o) { track_event(o, slice_end(2)); });
  // Cleared again, nothing interned: iid 1 means nothing.
  b.packet(1, 500, kCleared, [](ProtoWriter &o) {
    Event e;
    e.track = 2;
    e.name_iid = 1;
    track_event(o, e);
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok) << ::testing::PrintToString(imported->errors());
  ASSERT_EQ(imported->slices("forward").size(), 1u);
  EXPECT_EQ(imported->slices("forward")[0].category, "torch");
  EXPECT_EQ(imported->slices("forward")[0].begin, 100u);
  EXPECT_EQ(imported->slices("forward")[0].duration, 100u);
  ASSERT_EQ(imported->slices("backward").size(), 1u);
  EXPECT_EQ(imported->slices("backward")[0].begin, 300u);
  std::map<uint32_t, std::string> instants; // by track
  for (const auto &i : imported->host.instants())
    instants[i.track] = i.name;
  EXPECT_EQ(instants, (std::map<uint32_t, std::string>{{imported->track("main").id, ""},
                                                       {imported->track("worker").id, "load"}}));
  EXPECT_TRUE(imported->warned("1 references to names, categories or frames never interned", true))
      << ::testing::PrintToString(imported->warnings());
}

TEST(PerfettoTraceReader, PacketsNeedingLostStateAreLeftOut) {
  TraceBuilder b = with_threads();
  // Needs incremental state before its sequence ever cleared it.
  b.packet(1, 100, kNeedsState, [](ProtoWriter &o) { track_event(o, slice_begin(2, 1)); });
  b.packet(1, 200, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "kept");
    o.end_nested();
    Event e;
    e.track = 2;
    e.name_iid = 1;
    track_event(o, e);
  });
  // A packet was dropped before this one: the state is lost until the next clear.
  b.packet(1, 300, kNeedsState, [](ProtoWriter &o) {
    o.field_varint(pf::packet::kPreviousPacketDropped, 1);
    Event e;
    e.track = 2;
    e.name_iid = 1;
    track_event(o, e);
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  ASSERT_EQ(imported->host.instants().size(), 1u);
  EXPECT_EQ(imported->host.instants()[0].name, "kept");
  EXPECT_TRUE(imported->host.slices().empty());
  EXPECT_TRUE(imported->warned("2 packets of sequences whose incremental state was lost left out"))
      << ::testing::PrintToString(imported->warnings());
}

TEST(PerfettoTraceReader, SequenceScopedIncrementalClocksWithUnits) {
  TraceBuilder b = with_threads();
  // Sequence 1: clock 64 counts microseconds as deltas, from 10 us at
  // BOOTTIME 5 ms.
  b.packet(1, std::nullopt, kCleared, [](ProtoWriter &o) {
    packet_defaults(o, 64, 2);
    clock_snapshot(o, {{64, 10, true, 1000}, {6, 5'000'000}});
  });
  b.packet(1, 2, 0, [](ProtoWriter &o) { track_event(o, Event{.name = "a"}); }); // 12 us
  b.packet(1, 3, 0, [](ProtoWriter &o) { track_event(o, Event{.name = "b"}); }); // 15 us
  // Sequence 2's clock 64 is its own: absolute ns, 1000 ahead of BOOTTIME.
  b.packet(2, std::nullopt, kCleared, [](ProtoWriter &o) {
    packet_defaults(o, 64, 3);
    clock_snapshot(o, {{64, 1000}, {6, 0}});
  });
  b.packet(2, 7000, 0, [](ProtoWriter &o) { track_event(o, Event{.name = "c"}); });
  // A packet naming its own clock: BOOTTIME.
  b.packet(1, 9'000'000, 0, [](ProtoWriter &o) {
    o.field_varint(pf::packet::kTimestampClockId, 6);
    track_event(o, Event{.name = "d"});
  });
  // The incremental clock goes on from where it was, unmoved by "d".
  b.packet(1, 1, 0, [](ProtoWriter &o) { track_event(o, Event{.name = "e"}); }); // 16 us
  // A new snapshot restarts it.
  b.packet(1, std::nullopt, 0, [](ProtoWriter &o) {
    clock_snapshot(o, {{64, 0, true, 1000}, {6, 6'000'000}});
  });
  b.packet(1, 4, 0, [](ProtoWriter &o) { track_event(o, Event{.name = "f"}); });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok) << ::testing::PrintToString(imported->errors());
  std::map<std::string, uint64_t> at;
  for (const auto &i : imported->host.instants())
    at[i.name] = i.ts;
  EXPECT_EQ(at["a"], 5'002'000u);
  EXPECT_EQ(at["b"], 5'005'000u);
  EXPECT_EQ(at["c"], 6000u);
  EXPECT_EQ(at["d"], 9'000'000u);
  EXPECT_EQ(at["e"], 5'006'000u);
  EXPECT_EQ(at["f"], 6'004'000u);
  EXPECT_EQ(imported->track("main").id, imported->host.instants()[0].track);
  EXPECT_EQ(imported->start, 6000u);
}

TEST(PerfettoTraceReader, ClocksConvertThroughSnapshotsAndAnchorTheWallClock) {
  TraceBuilder b = with_threads();
  // MONOTONIC is BOOTTIME less 500; REALTIME at BOOTTIME 1000 is 1.7e18.
  b.packet(0, std::nullopt, 0, [](ProtoWriter &o) {
    clock_snapshot(o, {{3, 500}, {6, 1000}, {1, 1'700'000'000'000'000'000}});
  });
  // A later snapshot: BOOTTIME went 100 further than MONOTONIC (a suspend).
  b.packet(0, std::nullopt, 0, [](ProtoWriter &o) { clock_snapshot(o, {{3, 2000}, {6, 2600}}); });
  for (const uint64_t ts : {1500u, 2500u}) {
    b.packet(1, ts, 0, [](ProtoWriter &o) {
      o.field_varint(pf::packet::kTimestampClockId, 3);
      Event e;
      e.track = 2;
      e.name = "on monotonic";
      track_event(o, e);
    });
  }
  // A clock nothing relates to BOOTTIME: left out.
  b.packet(1, 10, 0, [](ProtoWriter &o) {
    o.field_varint(pf::packet::kTimestampClockId, 70);
    track_event(o, Event{.track = 2, .name = "lost"});
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  const auto instants = imported->host.instants();
  ASSERT_EQ(instants.size(), 2u);
  EXPECT_EQ(instants[0].ts, 2000u); // through the first snapshot
  EXPECT_EQ(instants[1].ts, 3100u); // through the second
  EXPECT_EQ(imported->start, 2000u);
  // The wall clock at the start: 1.7e18 at 1000, so 1.7e18 + 1000 at 2000.
  EXPECT_EQ(imported->monotonic_anchor, 2000u);
  EXPECT_EQ(imported->realtime_anchor, 1'700'000'000'000'001'000u);
  EXPECT_TRUE(
      imported->warned("1 events on clocks that no clock snapshot relates to the trace clock left "
                       "out"))
      << ::testing::PrintToString(imported->warnings());
}

TEST(PerfettoTraceReader, SlicesNestPerTrackAndCloseAtTheEnd) {
  TraceBuilder b = with_threads();
  b.packet(1, std::nullopt, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "outer");
    intern(o, pf::interned_data::kEventNames, 2, "inner");
    intern(o, pf::interned_data::kEventNames, 3, "other thread");
    intern(o, pf::interned_data::kEventNames, 4, "never ends");
    o.end_nested();
  });
  const auto at = [&](uint64_t ts, Event e) {
    b.packet(1, ts, 0, [&](ProtoWriter &o) { track_event(o, e); });
  };
  at(90, slice_end(2)); // ends nothing: left out
  at(100, slice_begin(2, 1));
  at(110, slice_begin(2, 2));
  at(115, slice_begin(3, 3)); // another track: its own stack
  b.packet(1, 120, 0, [](ProtoWriter &o) {
    track_event(o, slice_end(2), [](ProtoWriter &a) {
      a.begin_nested(te::kDebugAnnotations);
      a.field_bytes(pf::debug_annotation::kName, "result");
      a.field_int(pf::debug_annotation::kIntValue, -3);
      a.end_nested();
    });
  });
  at(130, slice_end(3));
  at(150, slice_end(2));
  at(160, slice_begin(2, 4));
  at(170, Event{.track = 3, .name = "last"});
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  const uint32_t main = imported->track("main").id, worker = imported->track("worker").id;
  ASSERT_EQ(imported->slices("outer").size(), 1u);
  EXPECT_EQ(imported->slices("outer")[0].begin, 100u);
  EXPECT_EQ(imported->slices("outer")[0].duration, 50u);
  EXPECT_EQ(imported->slices("outer")[0].track, main);
  ASSERT_EQ(imported->slices("inner").size(), 1u);
  EXPECT_EQ(imported->slices("inner")[0].duration, 10u);
  EXPECT_EQ(imported->slices("inner")[0].args.at("result"), "-3"); // the END's annotation
  ASSERT_EQ(imported->slices("other thread").size(), 1u);
  EXPECT_EQ(imported->slices("other thread")[0].track, worker);
  EXPECT_EQ(imported->slices("other thread")[0].duration, 15u);
  ASSERT_EQ(imported->slices("never ends").size(), 1u);
  EXPECT_EQ(imported->slices("never ends")[0].duration, 10u); // to the last event, at 170
  const auto warnings = imported->warnings();
  EXPECT_TRUE(imported->warned("1 slice ends with no open slice on their track left out"));
  EXPECT_TRUE(imported->warned("1 slices never ended: closed at the trace's last event"));
}

TEST(PerfettoTraceReader, AnEndThatNamesItsSliceClosesThatOne) {
  TraceBuilder b = with_threads();
  b.packet(1, std::nullopt, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "Running");
    intern(o, pf::interned_data::kEventNames, 2, "pthread_join");
    o.end_nested();
  });
  const auto at = [&](uint64_t ts, Event e) {
    b.packet(1, ts, 0, [&](ProtoWriter &o) { track_event(o, e); });
  };
  at(100, slice_begin(2, 1));
  at(150, slice_begin(2, 2));
  Event end_running = slice_end(2);
  end_running.name_iid = 1; // not the latest open slice: named
  at(180, end_running);
  at(220, slice_end(2));
  Event stray = slice_end(2);
  stray.name = "never begun";
  at(230, stray);
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  EXPECT_EQ(imported->slices("Running").at(0).duration, 80u);
  EXPECT_EQ(imported->slices("pthread_join").at(0).duration, 70u);
  EXPECT_TRUE(imported->warned("1 slice ends with no open slice on their track left out"));
}

TEST(PerfettoTraceReader, ATrackWrittenFromSeveralSequencesMatchesInTimeOrder) {
  TraceBuilder b = with_threads();
  b.track(20, 1, "async");
  b.packet(1, 100, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeSliceBegin, .track = 20, .name = "request"});
  });
  b.packet(2, 300, 0, [](ProtoWriter &o) { track_event(o, slice_end(20)); });
  b.packet(1, 150, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeSliceBegin, .track = 20, .name = "step"});
  });
  b.packet(1, 200, 0, [](ProtoWriter &o) { track_event(o, slice_end(20)); });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  ASSERT_EQ(imported->slices("request").size(), 1u);
  EXPECT_EQ(imported->slices("request")[0].duration, 200u);
  ASSERT_EQ(imported->slices("step").size(), 1u);
  EXPECT_EQ(imported->slices("step")[0].duration, 50u);
  EXPECT_EQ(imported->track("async").parent, imported->track("train").id);
  EXPECT_EQ(imported->track("async").pid, 0); // its place says whose it is
}

TEST(PerfettoTraceReader, CountersWithUnitsIncrementsAndExtraValues) {
  TraceBuilder b = with_threads();
  b.counter(30, 1, "Memory used", pf::counter_descriptor::kUnitSizeBytes);
  b.counter(31, 2, "cpu time", pf::counter_descriptor::kUnitTimeNs, true, 1000);
  b.counter(32, 0, "load");
  b.packet(1, std::nullopt, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kTracePacketDefaults);
    o.begin_nested(pf::trace_packet_defaults::kTrackEventDefaults);
    o.field_varint(pf::track_event_defaults::kTrackUuid, 2);
    o.field_varint(pf::track_event_defaults::kExtraCounterTrackUuids, 31);
    o.end_nested();
    o.end_nested();
  });
  b.packet(1, 100, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeCounter, .track = 30, .counter = 4096});
  });
  b.packet(1, 110, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeCounter, .track = 32, .double_counter = 0.25});
  });
  // Extra counter values on a slice's begin and end: cpu time 5 and 5+2 us.
  for (const auto &[ts, type, delta] :
       {std::tuple{120, te::kTypeSliceBegin, 5}, std::tuple{130, te::kTypeSliceEnd, 2}}) {
    b.packet(1, ts, 0, [&](ProtoWriter &o) {
      o.begin_nested(pf::packet::kTrackEvent);
      o.field_varint(te::kType, type);
      if (type == te::kTypeSliceBegin) o.field_bytes(te::kName, "work");
      o.field_int(te::kExtraCounterValues, delta);
      o.end_nested();
    });
  }
  // A counter value on a slice track: left out.
  b.packet(1, 140, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeCounter, .track = 2, .counter = 1});
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  const auto memory = imported->track("Memory used");
  EXPECT_EQ(memory.kind, PROF_TRACK_COUNTER);
  EXPECT_EQ(memory.unit, "bytes");
  EXPECT_EQ(memory.parent, imported->track("train").id);
  ASSERT_EQ(imported->host.values(memory.id).size(), 1u);
  EXPECT_EQ(imported->host.values(memory.id)[0].value, 4096);
  EXPECT_EQ(imported->host.values(imported->track("load").id)[0].value, 0.25);
  const auto cpu = imported->host.values(imported->track("cpu time").id);
  ASSERT_EQ(cpu.size(), 2u);
  EXPECT_EQ(cpu[0].value, 5000);
  EXPECT_EQ(cpu[1].value, 7000);
  EXPECT_EQ(imported->track("cpu time").unit, "ns");
  ASSERT_EQ(imported->slices("work").size(), 1u);
  EXPECT_TRUE(imported->warned("1 counter values on tracks without a counter descriptor left out"));
}

TEST(PerfettoTraceReader, FlowsAndCorrelationIds) {
  TraceBuilder b = with_threads();
  b.track(40, 0, "GPU 0").track(41, 40, "Stream 7");
  // An API call whose flow id (a varint, as prof writes short ones) is its
  // correlation id, and the kernel it launched.
  b.packet(1, 100, 0, [](ProtoWriter &o) {
    track_event(o,
                Event{.type = te::kTypeSliceBegin, .track = 2, .name = "launch", .old_flows = {7}});
  });
  b.packet(1, 120, 0, [](ProtoWriter &o) { track_event(o, slice_end(2)); });
  b.packet(1, 200, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeSliceBegin, .track = 41, .name = "kernel", .flows = {7}});
  });
  b.packet(1, 260, 0, [](ProtoWriter &o) { track_event(o, slice_end(41)); });
  // A correlation_id wins over flow ids.
  b.packet(1, 300, 0, [](ProtoWriter &o) {
    track_event(o, Event{.type = te::kTypeSliceBegin,
                         .track = 3,
                         .name = "correlated",
                         .flows = {8},
                         .correlation = 99});
  });
  b.packet(1, 310, 0, [](ProtoWriter &o) { track_event(o, slice_end(3)); });
  // Flow events as prof writes them: instants with flow ids and nothing else.
  b.packet(1, 400, 0, [](ProtoWriter &o) {
    track_event(o, Event{.track = 2, .name = "flow", .flows = {uint64_t{1} << 60}});
  });
  b.packet(1, 410, 0, [](ProtoWriter &o) {
    track_event(o, Event{.track = 3, .name = "flow", .flows = {uint64_t{1} << 60}});
  });
  b.packet(1, 420, 0, [](ProtoWriter &o) {
    track_event(o, Event{.track = 41, .name = "flow", .terminating_flows = {uint64_t{1} << 60}});
  });
  // An instant of its own that has a flow: both.
  b.packet(1, 500, 0, [](ProtoWriter &o) {
    track_event(o, Event{.track = 2, .name = "mark", .categories = {"user"}, .old_flows = {5}});
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  EXPECT_EQ(imported->slices("launch").at(0).correlation, 7u);
  EXPECT_EQ(imported->slices("kernel").at(0).correlation, 7u);
  EXPECT_EQ(imported->slices("correlated").at(0).correlation, 99u);
  const auto flows = imported->host.flows();
  ASSERT_EQ(flows.size(), 4u);
  EXPECT_EQ(flows[0].phase, PROF_FLOW_BEGIN);
  EXPECT_EQ(flows[0].track, imported->track("main").id);
  EXPECT_EQ(flows[0].id, uint64_t{1} << 60);
  EXPECT_EQ(flows[1].phase, PROF_FLOW_STEP);
  EXPECT_EQ(flows[2].phase, PROF_FLOW_END);
  EXPECT_EQ(flows[2].track, imported->track("Stream 7").id);
  EXPECT_EQ(flows[3].id, 5u);
  const auto instants = imported->host.instants();
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0].name, "mark");
  EXPECT_EQ(instants[0].category, "user");
  // prof's device names come back as what they were.
  EXPECT_EQ(imported->track("GPU 0").kind, PROF_TRACK_DEVICE);
  EXPECT_EQ(imported->track("GPU 0").index, 0);
  EXPECT_EQ(imported->track("Stream 7").kind, PROF_TRACK_ENGINE);
  EXPECT_EQ(imported->track("Stream 7").index, 7);
}

TEST(PerfettoTraceReader, AnnotationsOfEveryValueType) {
  TraceBuilder b = with_threads();
  b.packet(1, 100, kCleared, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kDebugAnnotationNames, 1, "bytes");
    intern(o, pf::interned_data::kDebugAnnotationNames, 2, "stream");
    intern(o, pf::interned_data::kDebugAnnotationStringValues, 1, "interned text");
    o.end_nested();
    track_event(o, Event{.track = 2, .name = "annotated"}, [](ProtoWriter &a) {
      namespace da = pf::debug_annotation;
      const auto arg = [&](auto &&write) {
        a.begin_nested(te::kDebugAnnotations);
        write();
        a.end_nested();
      };
      arg([&] { a.field_varint(da::kNameIid, 1), a.field_varint(da::kUintValue, 4096); });
      arg([&] { a.field_varint(da::kNameIid, 2), a.field_varint(da::kStringValueIid, 1); });
      arg([&] { a.field_bytes(da::kName, "delta"), a.field_int(da::kIntValue, -7); });
      arg([&] { a.field_bytes(da::kName, "ratio"), a.field_double(da::kDoubleValue, 0.5); });
      arg([&] { a.field_bytes(da::kName, "done"), a.field_varint(da::kBoolValue, 1); });
      arg([&] { a.field_bytes(da::kName, "note"), a.field_bytes(da::kStringValue, "plain"); });
      arg([&] { a.field_bytes(da::kName, "pointer"), a.field_varint(da::kPointerValue, 255); });
      arg([&] { a.field_bytes(da::kName, "nested"); }); // no value this reader takes: left out
    });
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  ASSERT_EQ(imported->host.instants().size(), 1u);
  const auto args = imported->host.instants()[0].args;
  EXPECT_EQ(args, (std::map<std::string, std::string>{{"bytes", "4096"},
                                                      {"stream", "interned text"},
                                                      {"delta", "-7"},
                                                      {"ratio", "0.5"},
                                                      {"done", "true"},
                                                      {"note", "plain"},
                                                      {"pointer", "255"}}));
}

TEST(PerfettoTraceReader, ProfsOwnCategoryBringsBackTheKind) {
  TraceBuilder b = with_threads();
  const uint64_t operator_iid = prof_iids::kKindBase + PROF_CATEGORY_OPERATOR;
  b.packet(1, 100, kCleared, [&](ProtoWriter &o) {
    o.begin_nested(pf::packet::kInternedData);
    intern(o, pf::interned_data::kEventNames, 1, "aten::mm");
    intern(o, pf::interned_data::kEventCategories, 5, "Operator");
    intern(o, pf::interned_data::kEventCategories, operator_iid, "operator");
    // An iid in prof's range whose name is no kind's: a category like any.
    intern(o, pf::interned_data::kEventCategories, prof_iids::kKindBase + 1, "not kernel");
    o.end_nested();
    track_event(o, Event{.type = te::kTypeSliceBegin,
                         .track = 2,
                         .name_iid = 1,
                         .category_iids = {5, operator_iid}});
  });
  b.packet(1, 150, 0, [](ProtoWriter &o) { track_event(o, slice_end(2)); });
  b.packet(1, 160, 0, [&](ProtoWriter &o) {
    track_event(o, Event{.track = 2, .name = "odd", .category_iids = {prof_iids::kKindBase + 1}});
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  const auto mm = imported->slices("aten::mm");
  ASSERT_EQ(mm.size(), 1u);
  EXPECT_EQ(mm[0].kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(mm[0].category, "Operator");
  ASSERT_EQ(imported->host.instants().size(), 1u);
  EXPECT_EQ(imported->host.instants()[0].kind, PROF_CATEGORY_OTHER);
  EXPECT_EQ(imported->host.instants()[0].category, "not kernel");
}

TEST(PerfettoTraceReader, FactsNameTheProgramPidsAndRank) {
  TraceBuilder b;
  b.process(1, 4242, "python3").process(5, 4243, "worker").thread(2, 4242, 4242, "main");
  b.packet(1, 1000, 0, [](ProtoWriter &o) { track_event(o, Event{.track = 2, .name = "x"}); });
  auto imported = import(b.bytes(), -1, 3);
  ASSERT_TRUE(imported->ok);
  EXPECT_EQ(imported->format, "perfetto");
  EXPECT_EQ(imported->program, "python3");
  EXPECT_EQ(imported->pids, (std::vector<int32_t>{4242, 4243}));
  EXPECT_EQ(imported->rank, "3");
  EXPECT_EQ(imported->start, 1000u);
  EXPECT_EQ(imported->realtime_anchor, 0u);
  EXPECT_TRUE(imported->warned("the trace has no wall-clock time", true));
  imported = import(b.bytes(), 7, 3);
  EXPECT_EQ(imported->rank, "7"); // the user's rank wins
  EXPECT_EQ(imported->track("main").parent, imported->track("python3").id);
  EXPECT_EQ(imported->track("main").tid, 4242);
}

TEST(PerfettoTraceReader, CallStacksOfPerfSamples) {
  TraceBuilder b = with_threads();
  b.packet(1, 500, kCleared, [](ProtoWriter &o) {
    namespace in = pf::interned_data;
    o.begin_nested(pf::packet::kInternedData);
    intern(o, in::kFunctionNames, 1, "main");
    intern(o, in::kFunctionNames, 2, "work");
    intern(o, in::kMappingPaths, 1, "libm.so");
    o.begin_nested(in::kMappings);
    o.field_varint(pf::mapping::kIid, 1);
    o.field_varint(pf::mapping::kPathStringIds, 1);
    o.end_nested();
    for (const auto &[iid, name] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 0}}) {
      o.begin_nested(in::kFrames);
      o.field_varint(pf::frame::kIid, iid);
      if (name != 0) o.field_varint(pf::frame::kFunctionNameId, name);
      o.field_varint(pf::frame::kMappingId, 1);
      o.field_varint(pf::frame::kRelPc, 0x1f);
      o.end_nested();
    }
    o.begin_nested(in::kCallstacks);
    o.field_varint(pf::callstack::kIid, 1);
    for (const int frame : {1, 2, 3}) // root first
      o.field_varint(pf::callstack::kFrameIds, frame);
    o.end_nested();
    o.end_nested();
    o.begin_nested(pf::packet::kPerfSample);
    o.field_varint(pf::perf_sample::kPid, 10);
    o.field_varint(pf::perf_sample::kTid, 12);
    o.field_varint(pf::perf_sample::kCallstackIid, 1);
    o.end_nested();
  });
  // A thread no descriptor names gets a track of its own.
  b.packet(1, 600, 0, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kPerfSample);
    o.field_varint(pf::perf_sample::kPid, 10);
    o.field_varint(pf::perf_sample::kTid, 13);
    o.field_varint(pf::perf_sample::kCallstackIid, 1);
    o.end_nested();
  });
  const auto imported = import(b.bytes());
  ASSERT_TRUE(imported->ok);
  const auto samples = imported->host.samples();
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].track, imported->track("worker").id);
  EXPECT_EQ(samples[0].ts, 500u);
  EXPECT_EQ(imported->host.frames(samples[0].stack),
            (std::vector<std::string>{"libm.so+0x1f", "work", "main"}));
  EXPECT_EQ(samples[1].track, imported->track("thread 13").id);
  EXPECT_EQ(imported->track("thread 13").parent, imported->track("train").id);
}

TEST(PerfettoTraceReader, RefusesWhatIsNoTraceWithTheOffset) {
  auto imported = import("{\"traceEvents\": []}");
  EXPECT_FALSE(imported->ok);
  ASSERT_EQ(imported->errors().size(), 1u);
  EXPECT_EQ(imported->errors()[0], "expected a TracePacket (Trace.packet, field 1, "
                                   "length-delimited: byte 0x0a), found byte 0x7b ('{') at "
                                   "offset 0");
  imported = import("");
  EXPECT_FALSE(imported->ok);
  EXPECT_EQ(imported->errors().at(0),
            "expected a TracePacket (Trace.packet, field 1), found an empty file at offset 0");
  // A packet whose track event holds a field of the wrong type.
  TraceBuilder b = with_threads();
  const size_t before = b.bytes().size();
  b.packet(1, 5, 0, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kTrackEvent);
    o.field_varint(te::kName, 3);
    o.end_nested();
  });
  imported = import(b.bytes());
  EXPECT_FALSE(imported->ok);
  ASSERT_EQ(imported->errors().size(), 1u);
  // Trace.packet tag and length, timestamp (2 bytes), sequence id (2), the
  // track_event's tag and length: TrackEvent.name's tag is 6 bytes in.
  EXPECT_EQ(imported->errors()[0], "expected TrackEvent.name (field 23) to be length-delimited, "
                                   "found a varint at offset " +
                                       std::to_string(before + 8));
  EXPECT_FALSE(imported->has_facts);
}

TEST(PerfettoTraceReader, AFileCutInsideItsLastPacketReadsTheOnesBefore) {
  TraceBuilder b = with_threads();
  b.packet(1, 100, 0, [](ProtoWriter &o) { track_event(o, Event{.track = 2, .name = "whole"}); });
  const size_t whole = b.bytes().size();
  b.packet(1, 200, 0, [](ProtoWriter &o) { track_event(o, Event{.track = 2, .name = "cut off"}); });
  const std::string cut = b.bytes().substr(0, b.bytes().size() - 3);
  const auto imported = import(cut);
  ASSERT_TRUE(imported->ok);
  ASSERT_EQ(imported->host.instants().size(), 1u);
  EXPECT_EQ(imported->host.instants()[0].name, "whole");
  const uint64_t length = b.bytes().size() - whole - 2;
  EXPECT_EQ(imported->warnings().at(0),
            "the file ends inside a packet at offset " + std::to_string(whole + 1) + " (expected " +
                std::to_string(length) + " bytes, found " + std::to_string(length - 3) +
                "): read the 4 packets before it");
  // Cut inside its first packet: nothing to read.
  const auto nothing = import(b.bytes().substr(0, 5));
  EXPECT_FALSE(nothing->ok);
  EXPECT_EQ(nothing->errors().at(0).rfind("expected a TracePacket of ", 0), 0u)
      << nothing->errors().at(0);
}

} // namespace
} // namespace prof::perfetto::testing
