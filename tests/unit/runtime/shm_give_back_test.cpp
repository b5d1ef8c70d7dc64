// prof's mapping of the shared region lets go of what prof has read (the
// catalog's log, slowly written rings); the region keeps its contents, so
// whatever is read again, by prof or another reader, is intact.
#include "core/events/event_sink.hpp"
#include "core/events/shm_event_source.hpp"
#include "core/runtime/shm_catalog_writer.hpp"
#include "tests/support/page_mapped.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace prof::core;

namespace {

// The application's view of the region: a mapping of its own, as in
// another process (faults in one mapping do not map pages in the other).
ShmRegion application_view(const ShmRegion &region) {
  ShmRegion view;
  std::string error;
  EXPECT_TRUE(view.attach(region.name(), &error)) << error;
  return view;
}

ShmRegionConfig region_config() {
  ShmRegionConfig config;
  config.ring_count = 2;
  config.ring_bytes = 1 << 20;
  config.watermark_bytes = 1 << 19;
  config.catalog_bytes = 1 << 20;
  return config;
}

} // namespace

// Pages of [begin, end) this process has mapped.
size_t pages_mapped(const char *begin, const char *end) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t mapped = 0;
  for (const char *p = begin; p < end; p += page)
    mapped += prof::testing::page_mapped(p);
  return mapped;
}

// Read a little at a time, as prof does: a page read maps its neighbours
// back (fault-around), and they must go too. Only the last 64 KiB behind
// the read position (and the page under it) may stay.
TEST(ShmGiveBack, TheCatalogLogProfReadLeavesItsMemoryAndStaysWhole) {
  ShmRegion region = ShmRegion::create(new_shm_name(), region_config(), "");
  ShmRegion application = application_view(region);
  region.unlink();
  ShmCatalogWriter writer(application);
  Catalog catalog;
  ShmEventSource source(region, catalog);
  const std::string text(1000, 'x');
  for (int i = 0; i < 200; ++i) {
    ASSERT_NE(writer.intern_string(text + std::to_string(i)), 0u);
    if (i % 3 == 2) source.sync_catalog();
  }
  source.sync_catalog();
  EXPECT_EQ(catalog.strings.size(), 201u);
  const char *log = region.catalog();
  const char *read_end = log + region.header()->catalog_end.load();
  EXPECT_GT(read_end - log, 150 << 10);
  EXPECT_EQ(pages_mapped(log + 4096, read_end - (68 << 10)), 0u);
  // Another reader finds every definition as written.
  Catalog again;
  ShmEventSource second(region, again);
  second.sync_catalog();
  ASSERT_EQ(again.strings.size(), 201u);
  for (prof_string_id id = 1; id <= 200; ++id)
    ASSERT_EQ(again.strings.text(id), text + std::to_string(id - 1));
}

namespace {

/// The application's side: its own mapping of the region, a ring pool over
/// it and one track and name to emit on.
struct Application {
  explicit Application(const ShmRegion &region)
      : view(application_view(region)), header(*view.header()),
        pool(view.rings(), header.ring_stride, header.slots, header.ring_count,
             header.ring_capacity, header.watermark_events, &header.no_ring_drops, false) {
    ShmCatalogWriter names(view);
    track = names.declare_track(prof_track_desc{sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0,
                                                "writer", getpid(), 0, -1, nullptr, 0});
    name = names.intern_string("tick");
  }
  void emit(uint64_t ts) {
    pool.emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, name, 0, ts, 0, 0, {}});
  }

  ShmRegion view;
  ShmHeader &header;
  RingPool pool;
  prof_track_id track = 0;
  prof_string_id name = 0;
};

} // namespace

TEST(ShmGiveBack, ARingReadALittleAtATimeLeavesProfsMemoryAndLosesNothing) {
  ShmRegion region = ShmRegion::create(new_shm_name(), region_config(), "");
  Application application(region);
  region.unlink();
  const ShmHeader &h = application.header;
  Catalog catalog;
  ShmEventSource source(region, catalog);
  std::vector<uint64_t> seen;
  const auto drain = [&] {
    source.sync_catalog();
    source.drain(
        [&](prof_event *events, size_t n) {
          for (size_t i = 0; i < n; ++i)
            seen.push_back(events[i].ts);
        },
        true);
  };
  uint64_t next = 0;
  std::thread([&] {
    // A lap and a half, 100 events (5 KB) at a time.
    while (next < h.ring_capacity * 3 / 2) {
      for (int i = 0; i < 100; ++i)
        application.emit(next++);
      drain();
    }
  }).join();
  ASSERT_EQ(seen.size(), next);
  for (uint64_t i = 0; i < seen.size(); ++i)
    ASSERT_EQ(seen[i], i);
  const char *ring = region.rings();
  EXPECT_TRUE(prof::testing::page_mapped(ring)); // the ring's header
  const uint64_t read_slot = next % h.ring_capacity;
  const char *read_at = ring + sizeof(RingHeader) + read_slot * sizeof(prof_event);
  EXPECT_EQ(pages_mapped(ring + 4096, read_at - (68 << 10)), 0u);
  EXPECT_EQ(pages_mapped(read_at + (68 << 10), ring + h.ring_stride), 0u);
}

TEST(ShmGiveBack, AFastWrittenRingGivesBackToo) {
  ShmRegion region = ShmRegion::create(new_shm_name(), region_config(), "");
  Application application(region);
  region.unlink();
  const ShmHeader &h = application.header;
  Catalog catalog;
  ShmEventSource source(region, catalog);
  // Most of a ring at once, read by a drain past the watermark.
  const uint64_t events = h.ring_capacity - 1;
  std::thread([&] {
    for (uint64_t i = 0; i < events; ++i)
      application.emit(i);
  }).join();
  source.sync_catalog();
  uint64_t read = 0;
  source.drain([&](prof_event *, size_t n) { read += n; }, false);
  EXPECT_EQ(read, events);
  EXPECT_FALSE(prof::testing::page_mapped(region.rings() + (h.ring_stride / 2)));
}
