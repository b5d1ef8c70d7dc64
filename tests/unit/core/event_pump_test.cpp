#include "core/events/event_bus.hpp"
#include "core/events/event_pump.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace prof::core;

namespace {
// Records what a sink sees, and checks that every id an event uses was
// announced through catalog_grew first.
struct RecordingSink : EventSink {
  std::vector<prof_event> events;
  CatalogMark announced;
  bool ids_announced_first = true;
  bool finished = false;
  void catalog_grew(const Catalog &, const CatalogMark &, const CatalogMark &now) override {
    announced = now;
  }
  void consume(const prof_event *e, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      if (e[i].track >= announced.tracks || e[i].name >= announced.strings)
        ids_announced_first = false;
      events.push_back(e[i]);
    }
  }
  void finish(const Catalog &, const CaptureEnd &) override { finished = true; }
};
} // namespace

TEST(EventPump, DeliversEverythingWithIdsAnnouncedFirst) {
  Catalog catalog;
  EventBus bus(EventBusConfig{1 << 20, 1 << 15, 4}); // room for every event: no drops
  RecordingSink sink;
  EventPump pump(bus, catalog, {&sink}, std::chrono::microseconds(200), 4);
  pump.start();
  std::thread producer([&] {
    for (int i = 0; i < 3000; ++i) {
      prof_track_desc d{sizeof(prof_track_desc), PROF_TRACK_CUSTOM, 0, "t", 0, 0, -1, nullptr, 0};
      d.name = (i % 100 == 0) ? "new" : "t";
      prof_track_id track = catalog.tracks.declare(&d);
      prof_string_id name = catalog.strings.intern("n" + std::to_string(i % 50));
      prof_event e{PROF_EVENT_SLICE, 0, 0, track, name, 0, uint64_t(i), 1, 0, 0};
      bus.emit(e);
    }
  });
  producer.join();
  pump.stop();
  EXPECT_EQ(bus.dropped(), 0u);
  EXPECT_EQ(sink.events.size(), 3000u);
  EXPECT_TRUE(sink.ids_announced_first);
  EXPECT_EQ(pump.events(), 3000u);
}

TEST(EventPump, ConvertsDeviceClockTimestampsToTheSessionClock) {
  Catalog catalog;
  EventBus bus(EventBusConfig{1 << 16, 1 << 15, 2});
  prof_clock_id device_clock = catalog.clocks.add("gcu0", 1e6);
  catalog.clocks.find(device_clock)->add_calibration(1000, 50'000'000);
  prof_track_desc d{sizeof(prof_track_desc), PROF_TRACK_ENGINE, 0, "SIP 0", 0, 0, 0, nullptr,
                    device_clock};
  prof_track_id track = catalog.tracks.declare(&d);
  RecordingSink sink;
  EventPump pump(bus, catalog, {&sink});
  bus.emit(prof_event{PROF_EVENT_SLICE, 0, 0, track, 0, 0, 1010, 5, 0, 0});
  bus.emit(prof_event{PROF_EVENT_COUNTER, 0, 0, track, 0, 0, 1020, 0, 0, 2.5});
  pump.drain_now(true);
  ASSERT_EQ(sink.events.size(), 2u);
  EXPECT_EQ(sink.events[0].ts, 50'010'000u);
  EXPECT_EQ(sink.events[0].duration, 5'000u);
  EXPECT_EQ(sink.events[1].ts, 50'020'000u);
  EXPECT_EQ(sink.events[1].value, 2.5);
}

namespace {
// A source with nothing to drain and the drops it was told.
struct DroppingSource : EventSource {
  std::vector<RingDrops> rings;
  size_t drain(const std::function<void(prof_event *, size_t)> &, bool) override { return 0; }
  uint64_t dropped() const override {
    uint64_t total = 0;
    for (const RingDrops &r : rings)
      total += r.dropped;
    return total;
  }
  std::vector<RingDrops> drops() const override { return rings; }
};
} // namespace

TEST(EventPump, TotalsCountTheDropsOfEverySource) {
  Catalog catalog;
  DroppingSource own, application;
  own.rings = {{0, 11, 3}};
  application.rings = {{0, 21, 5}, {1, 22, 7}};
  EventPump pump(own, catalog, {});
  pump.add_source(application);
  const CaptureEnd totals = pump.totals();
  EXPECT_EQ(totals.dropped, 15u);
  ASSERT_EQ(totals.drops.size(), 3u);
  EXPECT_EQ(totals.drops[2].tid, 22);
  EXPECT_GT(totals.end_ns, 0u);
}

// A rename declared after the last event (a process that exec'd and then
// emitted nothing) still reaches the sinks when the pump stops.
TEST(EventPump, StoppingAnnouncesWhatCameAfterTheLastEvent) {
  Catalog catalog;
  EventBus bus(EventBusConfig{1 << 12, 1 << 11, 2});
  RecordingSink sink;
  EventPump pump(bus, catalog, {&sink}, std::chrono::milliseconds(50), 4);
  pump.start();
  prof_track_desc process{
      sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "sh", 9, 0, -1, nullptr, 0};
  catalog.tracks.declare_renaming(&process);
  process.name = "app";
  catalog.tracks.declare_renaming(&process);
  pump.stop();
  EXPECT_EQ(sink.announced.tracks, 2u);
  EXPECT_EQ(sink.announced.track_renames, 1u);
}
