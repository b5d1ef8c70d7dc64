// A capture's stream written through ReportSink and replayed from the file
// gives the exporters the same catalog and events as the live capture.
#include "core/events/event_bus.hpp"
#include "core/events/event_pump.hpp"
#include "core/events/report_replay.hpp"
#include "core/events/report_sink.hpp"
#include "core/runtime/event_args_record.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <unistd.h>

using namespace prof::core;

namespace {
struct CollectingSink : EventSink {
  std::vector<prof_event> events;
  CaptureEnd end;
  void consume(const prof_event *e, size_t n) override { events.insert(events.end(), e, e + n); }
  void finish(const Catalog &, const CaptureEnd &e) override { end = e; }
};
} // namespace

TEST(ReportReplay, ReplayGivesBackTheLiveStream) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("prof-roundtrip-" + std::to_string(getpid()) + ".profrep"))
                               .string();
  Catalog live;
  EventBus bus(EventBusConfig{1 << 16, 1 << 15, 2});
  prof::report::ReportWriter writer;
  prof::report::Header header;
  header.session_name = "roundtrip";
  header.pids = {1234};
  writer.open(path, header, true);
  ReportSink report(writer);
  CollectingSink live_sink;
  EventPump pump(bus, live, {&report, &live_sink});

  prof_track_desc process{sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "app", 1234, 0, -1, nullptr, 0};
  auto p = live.tracks.declare(&process);
  prof_track_desc counter{sizeof(prof_track_desc), PROF_TRACK_COUNTER, p, "RSS", 1234, 0, -1, "bytes", 0};
  auto c = live.tracks.declare(&counter);
  auto name = live.strings.intern("step");
  prof_string_id frames[] = {live.strings.intern("leaf"), live.strings.intern("main")};
  auto stack = live.stacks.intern(frames);
  const prof_string_id bytes = live.strings.intern("bytes");
  const prof_string_id where = live.strings.intern("where");
  for (int i = 0; i < 1000; ++i) {
    prof_event slice{PROF_EVENT_SLICE,        0, 0,           p, name, 0,
                     uint64_t(1000 + i * 10), 5, uint64_t(i), 0};
    if (i % 10 == 0) { // every tenth with arguments and a category kind
      slice.kind = PROF_CATEGORY_MEMCPY_HTOD;
      const prof_arg args[3] = {prof::arg_uint(bytes, uint64_t(i % 30)),
                                prof::arg_string(where, name), prof::arg_double(where, 0.5)};
      prof_event records[kMaxRecordsPerEvent];
      bus.emit_group(records, pack_event_args(slice, args, 3, records));
    } else {
      bus.emit(slice);
    }
    bus.emit(prof_event{PROF_EVENT_COUNTER, 0, 0, c, 0, 0, uint64_t(1000 + i * 10), 0, 0, i * 1.5});
  }
  bus.emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, p, 0, 0, 99999, 0, stack, 0});
  pump.drain_now(true);
  CaptureEnd end{123456, pump.events(), 0, {}, 3, 0};
  report.finish(live, end);
  ASSERT_TRUE(report.error().empty()) << report.error();

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_TRUE(reader.complete());
  Catalog restored;
  load_catalog(reader, restored);
  EXPECT_EQ(restored.strings.text(name), "step");
  ASSERT_NE(restored.tracks.find(c), nullptr);
  EXPECT_STREQ(restored.tracks.find(c)->desc.unit, "bytes");
  EXPECT_EQ(restored.tracks.find(c)->desc.parent, p);
  ASSERT_EQ(restored.args.size(), live.args.size());
  ASSERT_EQ(live.args.size(), 4u); // three sets and the empty one
  for (prof_args_id id = 1; id < live.args.size(); ++id) {
    const auto want = live.args.args(id), got = restored.args.args(id);
    ASSERT_EQ(got.size(), want.size());
    for (size_t a = 0; a < want.size(); ++a)
      EXPECT_EQ(std::memcmp(&got[a], &want[a], sizeof(prof_arg)), 0) << id << "/" << a;
  }
  auto back = restored.stacks.frames(stack);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(restored.strings.text(back[1]), "main");

  CollectingSink replayed;
  replay(reader, restored, {&replayed}, {});
  ASSERT_EQ(replayed.events.size(), live_sink.events.size());
  for (size_t i = 0; i < replayed.events.size(); ++i)
    EXPECT_EQ(std::memcmp(&replayed.events[i], &live_sink.events[i], sizeof(prof_event)), 0) << i;
  EXPECT_EQ(replayed.end.exit_code, 3);
  EXPECT_EQ(replayed.end.end_ns, 123456u);
  std::filesystem::remove(path);
}

// A track renamed during the capture (a process that exec'd) reads back with
// its last name, the one it had when its events ended.
TEST(ReportReplay, ARenamedTrackReadsBackWithItsLastName) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("prof-renamed-" + std::to_string(getpid()) + ".profrep"))
                               .string();
  Catalog live;
  EventBus bus(EventBusConfig{1 << 12, 1 << 11, 2});
  prof::report::ReportWriter writer;
  writer.open(path, prof::report::Header{}, true);
  ReportSink report(writer);
  EventPump pump(bus, live, {&report});
  prof_track_desc process{
      sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "mpirun", 7, 0, -1, nullptr, 0};
  const auto p = live.tracks.declare_renaming(&process);
  const auto name = live.strings.intern("step");
  bus.emit(prof_event{PROF_EVENT_SLICE, 0, 0, p, name, 0, 100, 5, 0, 0});
  pump.drain_now(true); // written as "mpirun"
  process.name = "app";
  live.tracks.declare_renaming(&process);
  bus.emit(prof_event{PROF_EVENT_SLICE, 0, 0, p, name, 0, 200, 5, 0, 0});
  pump.drain_now(true);
  process.name = "app (rank 0)";
  live.tracks.declare_renaming(&process);
  bus.emit(prof_event{PROF_EVENT_SLICE, 0, 0, p, name, 0, 250, 5, 0, 0});
  pump.drain_now(true);
  report.finish(live, CaptureEnd{300, pump.events(), 0, {}, 0, 0});
  ASSERT_TRUE(report.error().empty()) << report.error();

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  ASSERT_NE(reader.track(p), nullptr);
  EXPECT_EQ(reader.track(p)->name, "app (rank 0)");
  EXPECT_EQ(reader.tracks().size(), 1u);
  Catalog restored;
  load_catalog(reader, restored);
  EXPECT_EQ(restored.tracks.find(p)->name, "app (rank 0)");
  std::filesystem::remove(path);
}

// Replay decodes chunks ahead on a second thread: many chunks still come out
// whole and in file order.
TEST(ReportReplay, ReplayOfManyChunksKeepsTheirOrder) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("prof-replay-chunks-" + std::to_string(getpid()) + ".profrep"))
                               .string();
  prof::report::ReportWriter writer;
  writer.open(path, prof::report::Header{}, true);
  std::vector<prof_event> written;
  for (int chunk = 0; chunk < 40; ++chunk) {
    std::vector<prof_event> events;
    for (int i = 0; i < 500; ++i)
      events.push_back(prof_event{PROF_EVENT_SLICE, 0, 0, 1, 1, 0,
                                  uint64_t(chunk * 100000 + i * 17), uint64_t(i % 9), uint64_t(i), 0});
    writer.add_events(events.data(), events.size());
    writer.flush(); // a chunk each
    written.insert(written.end(), events.begin(), events.end());
  }
  writer.finish({});
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  ASSERT_EQ(reader.event_chunks().size(), 40u);
  Catalog catalog;
  load_catalog(reader, catalog);
  CollectingSink replayed;
  uint64_t last_progress = 0;
  replay(reader, catalog, {&replayed}, [&](uint64_t done, uint64_t) { last_progress = done; });
  ASSERT_EQ(replayed.events.size(), written.size());
  EXPECT_EQ(last_progress, written.size());
  for (size_t i = 0; i < written.size(); ++i)
    ASSERT_EQ(std::memcmp(&replayed.events[i], &written[i], sizeof(prof_event)), 0) << i;
  std::filesystem::remove(path);
}
