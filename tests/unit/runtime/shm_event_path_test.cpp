// The shared event path across real processes: children attach to the region
// by name, define strings and tracks, emit from several threads, and die;
// prof's side reads everything they wrote, ids translated.
#include "core/catalog/args_folding.hpp"
#include "core/events/event_sink.hpp"
#include "core/events/shm_event_source.hpp"
#include "core/report/report_model.hpp"
#include "core/runtime/event_args_record.hpp"
#include "core/runtime/shm_catalog_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace prof::core;

namespace {
ShmRegionConfig small_region() {
  ShmRegionConfig config;
  config.ring_count = 8;
  config.ring_bytes = 1 << 20;
  config.watermark_bytes = 1 << 19;
  config.catalog_bytes = 1 << 16;
  return config;
}

/// The application's side of region `name`, attached by name as the agent
/// attaches it: a ring pool whose threads reserve the next ring themselves
/// when every backed one is taken.
struct AgentSide {
  explicit AgentSide(const std::string &name) {
    std::string error;
    attached = view.attach(name, &error);
    EXPECT_TRUE(attached) << error;
    if (!attached) return;
    ShmHeader &h = *view.header();
    const ShmLayout &l = view.layout();
    pool = std::make_unique<RingPool>(view.rings(), l.ring_stride, h.slots, l.ring_count,
                                      l.ring_capacity, l.watermark_events, &h.no_ring_drops, false,
                                      &h.rings_ready);
    pool->set_grow([](void *v) { return static_cast<ShmRegion *>(v)->reserve_next_ring(); }, &view);
  }
  ShmRegion view;
  bool attached = false;
  std::unique_ptr<RingPool> pool;
};

// In a child: attach, define, emit `per_thread` events from `threads` threads.
[[noreturn]] void child_emits(const std::string &name, int threads, int per_thread, bool hang) {
  ShmRegion region;
  std::string error;
  if (!region.attach(name, &error)) _exit(10);
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), h.ring_stride, h.slots, h.ring_count, h.ring_capacity,
                h.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter catalog(region);
  const std::string process_name = "child " + std::to_string(getpid());
  prof_track_desc process{sizeof(prof_track_desc),
                          PROF_TRACK_PROCESS,
                          0,
                          process_name.c_str(),
                          getpid(),
                          0,
                          -1,
                          nullptr,
                          0};
  const prof_track_id process_track = catalog.declare_track(process);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      const std::string thread_name = "worker " + std::to_string(t);
      prof_track_desc thread{sizeof(prof_track_desc),
                             PROF_TRACK_THREAD,
                             process_track,
                             thread_name.c_str(),
                             getpid(),
                             1000 + t,
                             -1,
                             nullptr,
                             0};
      const prof_track_id track = catalog.declare_track(thread);
      const prof_string_id name = catalog.intern_string("work " + std::to_string(t));
      for (int i = 0; i < per_thread; ++i)
        pool.emit(
            prof_event{PROF_EVENT_SLICE, 0, 0, track, name, 0, uint64_t(i), 1, uint64_t(i), 0});
    });
  for (auto &w : workers)
    w.join();
  if (hang) pause(); // killed while holding its rings
  _exit(0);
}
} // namespace

TEST(ShmRegion, AttachChecksWhatItMaps) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "config text");
  ShmRegion other;
  std::string error;
  ASSERT_TRUE(other.attach(name, &error)) << error;
  EXPECT_EQ(other.config_text(), "config text");
  EXPECT_EQ(other.header()->ring_count, 8u);
  EXPECT_FALSE(other.attach("/prof-no-such-region", &error));
  EXPECT_EQ(error.rfind("cannot open shared memory '/prof-no-such-region': ", 0), 0u) << error;
  // Sizes that do not fit the mapping are refused, not followed.
  const uint64_t capacity = region.header()->ring_capacity;
  region.header()->ring_capacity = capacity * 1024;
  ShmRegion too_big;
  EXPECT_FALSE(too_big.attach(name, &error));
  region.header()->ring_capacity = capacity;
  region.header()->version = 99;
  ShmRegion third;
  EXPECT_FALSE(third.attach(name, &error));
  EXPECT_EQ(error, "shared memory '" + name + "' is not a prof region of version " +
                       std::to_string(kShmVersion));
  region.unlink();
}

TEST(ShmEventPath, EventsOfKilledProcessesAreAllReadWithTheirNames) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);

  std::vector<pid_t> children;
  for (int c = 0; c < 2; ++c) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) child_emits(name, 3, 5000, true);
    children.push_back(pid);
  }
  // Let them emit, then kill them without warning.
  std::map<std::pair<int32_t, std::string>, uint64_t> seen;
  auto consume = [&](prof_event *events, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const TrackEntry *track = catalog.tracks.find(events[i].track);
      ASSERT_NE(track, nullptr);
      ++seen[{track->desc.pid, catalog.strings.text(events[i].name)}];
    }
  };
  for (int i = 0; i < 200 && seen.size() < 6; ++i) {
    source.drain(consume, true);
    usleep(5000);
  }
  for (pid_t pid : children)
    kill(pid, SIGKILL);
  for (pid_t pid : children)
    waitpid(pid, nullptr, 0);
  source.drain(consume, true);

  ASSERT_EQ(seen.size(), 6u);
  for (const auto &[key, count] : seen)
    EXPECT_EQ(count, 5000u) << key.first << " " << key.second;
  EXPECT_EQ(source.dropped(), 0u);
  // The dead children's rings were handed back.
  for (uint32_t i = 0; i < region.header()->ring_count; ++i)
    EXPECT_EQ(region.header()->slots[i].state.load(), RingPool::kFree) << i;
  region.unlink();
}

TEST(ShmEventPath, ALockLeftByADeadProcessIsTakenOver) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  region.header()->catalog_lock.store(dead); // as if it died inside the lock
  ShmCatalogWriter writer(region);
  EXPECT_EQ(writer.intern_string("after"), 1u);
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();
  EXPECT_EQ(catalog.strings.text(1), "after");
  region.unlink();
}

// A process in a container writes pids of its own namespace: with
// ids_unchecked, none is judged gone by them. A ring stays its owner's; a
// catalog lock is taken over only after a whole second.
TEST(ShmEventPath, WithIdsUncheckedNoOwnerIsJudgedGoneByItsPid) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  region.header()->ids_unchecked.store(1);
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  RingSlot &slot = region.header()->slots[0];
  slot.state.store(RingPool::kOwned);
  slot.pid.store(dead);
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.drain([](prof_event *, size_t) {}, true);
  EXPECT_EQ(slot.state.load(), RingPool::kOwned) << "its owner may live in another namespace";
  region.header()->ids_unchecked.store(0);
  source.drain([](prof_event *, size_t) {}, true);
  EXPECT_EQ(slot.state.load(), RingPool::kFree) << "looked up, the owner is gone";

  region.header()->ids_unchecked.store(1);
  region.header()->catalog_lock.store(dead);
  ShmCatalogWriter writer(region);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(writer.intern_string("after"), 1u);
  EXPECT_GE(std::chrono::steady_clock::now() - before, std::chrono::seconds(1));
  region.unlink();
}

// An agent passed the region's descriptor (a container, whose /dev/shm is
// its own) needs no name: it maps the region and backs new rings itself.
TEST(ShmRegion, AttachThroughAPassedDescriptorNeedsNoName) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.initial_rings = 2;
  ShmRegion region = ShmRegion::create(name, config, "config text");
  region.unlink();
  ASSERT_GE(region.fd(), 0);
  ShmRegion agent;
  std::string error;
  EXPECT_FALSE(agent.attach(name, &error)) << "the name is gone";
  ASSERT_TRUE(agent.attach_fd(region.fd(), name, &error)) << error;
  EXPECT_EQ(agent.config_text(), "config text");
  EXPECT_EQ(agent.fd(), -1) << "only prof hands the descriptor on";
  const uint32_t ready = region.header()->rings_ready.load();
  ASSERT_TRUE(agent.reserve_next_ring());
  EXPECT_EQ(region.header()->rings_ready.load(), ready + 1) << "backed and formatted";
}

TEST(ShmEventPath, AFullCatalogIsCountedNotCorrupted) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.catalog_bytes = 4096;
  ShmRegion region = ShmRegion::create(name, config, "");
  ShmCatalogWriter writer(region);
  int accepted = 0;
  for (int i = 0; i < 1000; ++i)
    if (writer.intern_string("string number " + std::to_string(i))) ++accepted;
  EXPECT_GT(accepted, 50);
  EXPECT_LT(accepted, 1000);
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();
  EXPECT_EQ(catalog.strings.size(), size_t(accepted) + 1);
  EXPECT_EQ(source.catalog_overflow(), uint64_t(1000 - accepted));
  region.unlink();
}

// A source that calibrates its clock ten times a second (as gcu's does)
// writes a pair to the catalog once a second at most: ten minutes of it fit
// a 64 KiB catalog with room left, where every pair would have filled it.
TEST(ShmEventPath, CalibrationPairsReachTheCatalogOnceASecondAtMost) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  ShmCatalogWriter writer(region);
  const prof_clock_id clock = writer.register_clock("device 0", 1e9);
  ASSERT_NE(clock, 0u);
  size_t written = 0;
  for (uint64_t ns = 0; ns <= 600'000'000'000; ns += 100'000'000)
    written += writer.add_calibration(clock, ns * 2, ns);
  EXPECT_EQ(written, 601u);
  EXPECT_NE(writer.intern_string("a name after ten minutes"), 0u) << "the catalog has room";
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();
  EXPECT_EQ(source.catalog_overflow(), 0u);
  size_t pairs = 0;
  for (size_t id = 1; id < catalog.clocks.size(); ++id)
    if (const ClockDomain *domain = catalog.clocks.find(static_cast<prof_clock_id>(id));
        domain && domain->name() == "device 0")
      pairs = domain->calibration().size();
  EXPECT_EQ(pairs, 601u);
  region.unlink();
}

// The catalog is reserved a part at a time: a process that fills the part
// reserved reserves more (through the region's name, in a child here, as in
// an application), and every definition arrives; once the name is gone no
// more can be reserved, and a definition past the reserved part is counted
// as the log being full, never written to memory that could fail.
TEST(ShmEventPath, TheCatalogIsReservedAsItFills) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.catalog_bytes = 4u << 20;
  config.initial_catalog_bytes = 64u << 10;
  ShmRegion region = ShmRegion::create(name, config, "");
  EXPECT_EQ(region.header()->catalog_reserved.load(), 64u << 10);
  const std::string text(1000, 'x');
  pid_t child = fork();
  if (child == 0) {
    ShmRegion attached;
    std::string error;
    if (!attached.attach(name, &error)) _exit(10);
    ShmCatalogWriter writer(attached);
    for (int i = 0; i < 2000; ++i) // about 2 MB
      if (writer.intern_string(text + std::to_string(i)) == 0) _exit(11);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const uint64_t reserved = region.header()->catalog_reserved.load();
  EXPECT_GE(reserved, region.header()->catalog_end.load());
  EXPECT_LE(reserved, config.catalog_bytes);
  // What was reserved is backed: the file's blocks cover it.
  struct stat st {};
  const int fd = shm_open(name.c_str(), O_RDONLY, 0);
  ASSERT_GE(fd, 0);
  fstat(fd, &st);
  close(fd);
  EXPECT_GE(static_cast<uint64_t>(st.st_blocks) * 512, region.layout().catalog_offset + reserved);

  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();
  EXPECT_EQ(catalog.strings.size(), 2001u);
  EXPECT_EQ(source.catalog_overflow(), 0u);

  region.unlink();
  ShmCatalogWriter writer(region);
  int accepted = 0;
  for (int i = 0; i < 3000 && accepted == i; ++i)
    accepted += writer.intern_string("late " + text + std::to_string(i)) != 0;
  EXPECT_LT(accepted, 3000) << "nothing reserved past the name";
  EXPECT_LE(region.header()->catalog_end.load(), region.header()->catalog_reserved.load());
  source.sync_catalog();
  EXPECT_EQ(source.catalog_overflow(), 1u);
}

// Arguments an application emits arrive with its string and stack ids turned
// into prof's; an argument set id it wrote into an event itself is not trusted.
TEST(ShmEventPath, ArgumentsArriveTranslatedAndForgedSetIdsAreCleared) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  catalog.strings.intern("taken by prof first"); // so the two id spaces differ
  ShmEventSource source(region, catalog);
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), h.ring_stride, h.slots, h.ring_count, h.ring_capacity,
                h.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter writer(region);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, "t", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(thread);
  const prof_string_id bytes = writer.intern_string("bytes");
  const prof_string_id peer = writer.intern_string("peer");
  const prof_string_id rank = writer.intern_string("rank 3");
  catalog.stacks.intern(std::vector<prof_string_id>{0}); // the id spaces differ here too
  const prof_string_id frames[] = {peer, rank};
  const prof_stack_id stack = writer.intern_stack(frames);
  prof_event forged{PROF_EVENT_SLICE, 0, 0, track, bytes, 0, 10, 1, 0, 0};
  forged.args = 0xdeadbeefcafeull;
  pool.emit(forged);
  const prof_arg with_values[3] = {prof::arg_uint(bytes, 4096), prof::arg_string(peer, rank),
                                   prof::arg_stack(peer, stack)};
  prof_event records[kMaxRecordsPerEvent];
  pool.emit_group(records,
                  pack_event_args(prof_event{PROF_EVENT_SLICE, 0, 0, track, bytes, 0, 20, 1, 0, 0},
                                  with_values, 3, records));
  std::vector<prof_event> drained;
  source.drain([&](prof_event *e, size_t n) { drained.insert(drained.end(), e, e + n); }, true);
  drained.resize(fold_args(drained.data(), drained.size(), catalog.args));
  ASSERT_EQ(drained.size(), 2u);
  EXPECT_EQ(drained[0].args, 0u);
  const auto set = catalog.args.args(static_cast<prof_args_id>(drained[1].args));
  ASSERT_EQ(set.size(), 3u);
  EXPECT_EQ(catalog.strings.text(set[0].key), "bytes");
  EXPECT_EQ(set[0].value.u, 4096u);
  EXPECT_EQ(catalog.strings.text(set[1].key), "peer");
  EXPECT_EQ(catalog.strings.text(set[1].value.s), "rank 3");
  const auto frames_back = catalog.stacks.frames(static_cast<prof_stack_id>(set[2].value.u));
  ASSERT_EQ(frames_back.size(), 2u);
  EXPECT_EQ(catalog.strings.text(frames_back[0]), "peer");
  EXPECT_EQ(catalog.strings.text(frames_back[1]), "rank 3");
  region.unlink();
}

// A device track's owner (ABI 1.10) arrives as the pid prof sees, and the
// shared mark with it.
TEST(ShmEventPath, TrackOwnersAndTheSharedMarkArrive) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  ShmCatalogWriter writer(region);
  prof_track_desc device{
      sizeof(prof_track_desc), PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, nullptr, 0,
      PROF_TRACK_SHARED};
  const prof_track_id dev = writer.declare_track(device);
  prof_track_desc stream{
      sizeof(prof_track_desc), PROF_TRACK_ENGINE, dev, "General stream 1", 77, 0, 1, nullptr, 0, 0};
  writer.declare_track(stream);
  source.sync_catalog();
  ASSERT_EQ(catalog.tracks.size(), 3u);
  EXPECT_EQ(catalog.tracks.find(1)->desc.flags, PROF_TRACK_SHARED);
  EXPECT_EQ(catalog.tracks.find(2)->desc.flags, 0u);
  EXPECT_EQ(catalog.tracks.find(2)->desc.pid, 77);
  EXPECT_EQ(catalog.tracks.find(2)->desc.parent, 1u);
  region.unlink();
}

// A thread of the application that finds every backed ring taken reserves
// the next itself (through the region's name, as the agent does) instead of
// losing events until prof's next drain; prof counts that ring as backed. A
// ring lock held by another live thread is waited for briefly (then the
// emit is dropped, counted); one left by a dead thread is taken over.
TEST(ShmEventPath, AThreadThatFindsEveryRingTakenReservesTheNext) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.initial_rings = 1;
  ShmRegion region = ShmRegion::create(name, config, "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  AgentSide agent(name);
  ASSERT_TRUE(agent.attached);
  ShmRegion &agent_view = agent.view;
  ShmHeader &h = *agent_view.header();
  RingPool &pool = *agent.pool;
  const prof_event event{PROF_EVENT_SLICE, 0, 0, 1, 0, 0, 1, 1, 0, 0};
  const auto emit_on_new_thread = [&] {
    bool kept = false;
    std::thread([&] { kept = pool.emit(event); }).join();
    return kept;
  };
  EXPECT_TRUE(pool.emit(event)); // the one ring backed from the start, kept by this thread

  h.rings_lock.store(static_cast<int32_t>(getppid())); // alive: waited for briefly, not taken
  EXPECT_FALSE(emit_on_new_thread());
  EXPECT_EQ(h.no_ring_drops.load(), 1u);
  EXPECT_EQ(h.rings_ready.load(), 1u);
  EXPECT_FALSE(region.grow(1).has_value()) << "prof does not wait for it either";

  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  h.rings_lock.store(dead);
  EXPECT_TRUE(emit_on_new_thread()) << "a lock left by a dead process is taken over";
  EXPECT_EQ(h.rings_ready.load(), 2u);
  EXPECT_EQ(h.rings_lock.load(), 0);
  // That thread ended, but its ring waits for the drain: the next reserves another.
  EXPECT_TRUE(emit_on_new_thread());
  EXPECT_EQ(h.rings_ready.load(), 3u);
  EXPECT_EQ(h.no_ring_drops.load(), 1u);
  EXPECT_EQ(source.drain([](prof_event *, size_t) {}, true), 3u)
      << "the rings the threads backed are read";
  EXPECT_EQ(region.grow(1), std::optional<uint32_t>(1));
  EXPECT_EQ(region.rings_ready(), 4u) << "prof counts the rings the application backed";
  EXPECT_EQ(h.rings_ready.load(), 4u);
  h.rings_full.store(1); // a reservation failed for room: nobody tries again
  EXPECT_FALSE(agent_view.reserve_next_ring());
  EXPECT_EQ(h.rings_ready.load(), 4u);
  region.unlink();
}

// Only the first rings are reserved; prof's drain reserves more while few
// are free, and a thread that found none gets one after.
// A ring published while a thread grows the region may be taken by another
// thread first (two of the application's threads starting together, or prof
// reserving the first ring as the application starts): the thread grows
// again rather than drop its event.
TEST(ShmEventPath, AThreadWhoseNewRingIsTakenGrowsAgain) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.initial_rings = 1;
  ShmRegion region = ShmRegion::create(name, config, "");
  AgentSide agent(name);
  ASSERT_TRUE(agent.attached);
  ShmRegion &agent_view = agent.view;
  ShmHeader &h = *agent_view.header();
  RingPool &pool = *agent.pool;
  const prof_event event{PROF_EVENT_SLICE, 0, 0, 1, 0, 0, 1, 1, 0, 0};
  struct Grower {
    ShmRegion *view;
    RingPool *pool;
    const prof_event *event;
    int calls = 0;
    bool stolen = false;
  } grower{&agent_view, &pool, &event};
  pool.set_grow(
      [](void *context) {
        Grower &g = *static_cast<Grower *>(context);
        const bool grown = g.view->reserve_next_ring();
        if (++g.calls == 1) // another thread takes the ring just published
          std::thread([&g] { g.stolen = g.pool->emit(*g.event); }).join();
        return grown;
      },
      &grower);
  EXPECT_TRUE(pool.emit(event)); // the one ring backed from the start
  bool kept = false;
  std::thread([&] { kept = pool.emit(event); }).join();
  EXPECT_TRUE(grower.stolen);
  EXPECT_TRUE(kept) << "grew again after its new ring was taken";
  EXPECT_EQ(grower.calls, 2);
  EXPECT_EQ(h.no_ring_drops.load(), 0u);
  EXPECT_EQ(h.rings_ready.load(), 3u);
  region.unlink();
}

TEST(ShmEventPath, RingsAreReservedAsThreadsTakeThem) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.initial_rings = 2;
  ShmRegion region = ShmRegion::create(name, config, "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  ShmHeader &h = *region.header();
  const ShmLayout &l = region.layout();
  EXPECT_EQ(h.rings_ready.load(), 2u);
  EXPECT_EQ(region.rings_ready(), 2u);
  RingPool pool(region.rings(), l.ring_stride, h.slots, l.ring_count, l.ring_capacity,
                l.watermark_events, &h.no_ring_drops, false, &h.rings_ready);
  const prof_event event{PROF_EVENT_SLICE, 0, 0, 1, 0, 0, 1, 1, 0, 0};
  std::mutex mutex;
  std::condition_variable cv;
  int holding = 0;
  bool done = false;
  std::vector<std::thread> holders;
  for (int t = 0; t < 2; ++t) // take both rings and keep them
    holders.emplace_back([&] {
      EXPECT_TRUE(pool.emit(event));
      std::unique_lock lock(mutex);
      ++holding;
      cv.notify_all();
      cv.wait(lock, [&] { return done; });
    });
  {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return holding == 2; });
  }
  bool first = true, after_growth = false;
  std::thread late([&] {
    first = pool.emit(event); // no ring backed and free: dropped, counted
    source.drain([](prof_event *, size_t) {}, true);
    EXPECT_EQ(region.rings_ready(), 2u) << "a full drain (the last ones) reserves none";
    source.drain([](prof_event *, size_t) {}, false);
    after_growth = pool.emit(event);
  });
  late.join();
  EXPECT_FALSE(first);
  EXPECT_TRUE(after_growth);
  EXPECT_EQ(h.no_ring_drops.load(), 1u);
  EXPECT_EQ(region.rings_ready(),
            std::min<uint32_t>(2 + ShmEventSource::kSpareRings, l.ring_count));
  EXPECT_EQ(h.rings_ready.load(), region.rings_ready());
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  cv.notify_all();
  for (auto &t : holders)
    t.join();
  region.unlink();
}

// A region made with no ring reserved (prof reserves the first while the
// application execs): the first thread of the application to emit before
// that reserves one itself, and prof, growing to one ring, reserves no other.
TEST(ShmEventPath, TheFirstRingMayBeReservedAfterTheRegionIsMade) {
  const std::string name = new_shm_name();
  ShmRegionConfig config = small_region();
  config.initial_rings = 0;
  ShmRegion region = ShmRegion::create(name, config, "");
  EXPECT_EQ(region.header()->rings_ready.load(), 0u);
  EXPECT_EQ(region.rings_ready(), 0u);
  AgentSide agent(name);
  ASSERT_TRUE(agent.attached);
  ShmRegion &agent_view = agent.view;
  ShmHeader &h = *agent_view.header();
  RingPool &pool = *agent.pool;
  EXPECT_TRUE(pool.emit(prof_event{PROF_EVENT_SLICE, 0, 0, 1, 0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(h.rings_ready.load(), 1u);
  EXPECT_EQ(h.no_ring_drops.load(), 0u);
  Catalog catalog;
  ShmEventSource source(region, catalog);
  EXPECT_EQ(source.drain([](prof_event *, size_t) {}, true), 1u);
  // What reserve_initial_rings asks for: one ring, there already.
  EXPECT_EQ(region.grow(1u - h.rings_ready.load()), std::optional<uint32_t>(0));
  EXPECT_EQ(region.rings_ready(), 1u) << "prof counts the ring the application backed";
  EXPECT_EQ(h.rings_ready.load(), 1u);
  EXPECT_EQ(h.rings_full.load(), 0);
  region.unlink();
}

// What a wild pointer in the application does to the region costs only what
// it hit: the header's sizes are not trusted, a ring whose positions make no
// sense is abandoned (and said), a definition with an impossible id ignored.
TEST(ShmEventPath, AWrittenOverHeaderMovesNothing) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), region.layout().ring_stride, h.slots, region.layout().ring_count,
                region.layout().ring_capacity, region.layout().watermark_events, &h.no_ring_drops,
                false);
  ShmCatalogWriter writer(region);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, "t", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(thread);
  for (int i = 0; i < 10; ++i)
    pool.emit(prof_event{PROF_EVENT_SLICE, 0, 0, track, 0, 0, uint64_t(i), 1, 0, 0});
  // Sizes and offsets the application scribbled over.
  h.ring_capacity = ~uint64_t{0};
  h.ring_stride = 3;
  h.catalog_bytes = ~uint64_t{0};
  h.catalog_offset = ~uint64_t{0} / 2;
  h.ring_count = 100000;
  std::vector<prof_event> drained;
  source.drain([&](prof_event *e, size_t n) { drained.insert(drained.end(), e, e + n); }, true);
  ASSERT_EQ(drained.size(), 10u);
  EXPECT_NE(drained[0].track, 0u);
  // A writer appending a definition keeps to the real log.
  EXPECT_NE(writer.intern_string("after the scribble"), 0u);
  region.unlink();
}

TEST(ShmEventPath, ARingWithImpossiblePositionsIsAbandonedTheOthersRead) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  ShmHeader &h = *region.header();
  const ShmLayout &l = region.layout();
  RingPool pool(region.rings(), l.ring_stride, h.slots, l.ring_count, l.ring_capacity,
                l.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter writer(region);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, "t", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(thread);
  std::thread([&] { // claims ring 0, and leaves 3 events in it
    for (int i = 0; i < 3; ++i)
      pool.emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, 0, 0, uint64_t(i), 0, 0, 0});
  })
      .join();
  std::thread([&] { // ring 1: 5 events
    for (int i = 0; i < 5; ++i)
      pool.emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, 0, 0, uint64_t(i), 0, 0, 0});
  })
      .join();
  // Ring 0's head leaps far past what it can hold: reading on would never end.
  auto *ring0 = reinterpret_cast<RingHeader *>(region.rings());
  ring0->head.store(ring0->tail.load() + (uint64_t{1} << 60));
  size_t drained = 0;
  source.drain([&](prof_event *, size_t n) { drained += n; }, true);
  EXPECT_EQ(drained, 5u);
  // Abandoned for good: later drains skip it, and say nothing more.
  source.drain([&](prof_event *, size_t n) { drained += n; }, true);
  EXPECT_EQ(drained, 5u);
  region.unlink();
}

TEST(ShmEventPath, ADefinitionWithAnImpossibleIdIsIgnored) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  ShmCatalogWriter writer(region);
  writer.intern_string("first");
  // The id counter written over: the next string claims an id no log can hold.
  region.header()->next_string = 0xfffffff0u;
  writer.intern_string("second");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();                 // would resize a table to 4 G entries
  EXPECT_EQ(catalog.strings.size(), 2u); // "" and "first"
  region.unlink();
}

// An application's event that names a track, string or stack its catalog
// never defined is refused and counted, never written on "track 0".
TEST(ShmEventPath, EventsNamingUndefinedIdsAreRefusedAndCounted) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  const ShmLayout &l = region.layout();
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), l.ring_stride, h.slots, l.ring_count, l.ring_capacity,
                l.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter writer(region);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, "t", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(thread);
  const prof_string_id empty = writer.intern_string(""); // defined, and prof's id 0
  pool.emit(prof_event{PROF_EVENT_SLICE, 0, 0, track, empty, 0, 1, 1, 0, 0}); // kept
  pool.emit(prof_event{PROF_EVENT_SLICE, 0, 0, 4242, 0, 0, 2, 1, 0, 0});      // no such track
  pool.emit(prof_event{PROF_EVENT_SLICE, 0, 0, track, 999, 0, 3, 1, 0, 0});   // no such name
  pool.emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, 0, 4, 0, 77, 0});   // no such stack
  pool.emit(prof_event{PROF_EVENT_INSTANT, 0, 0, 0, 0, 0, 5, 0, 0, 0});       // the root
  std::vector<prof_event> drained;
  source.drain([&](prof_event *e, size_t n) { drained.insert(drained.end(), e, e + n); }, true);
  ASSERT_EQ(drained.size(), 1u);
  EXPECT_EQ(drained[0].ts, 1u);
  EXPECT_EQ(drained[0].name, 0u);
  uint64_t refused = 0;
  for (const RingDrops &d : source.drops())
    if (d.ring == prof::report::kInvalidEventsRing) refused = d.dropped;
  EXPECT_EQ(refused, 4u);
  EXPECT_EQ(source.dropped(), 0u) << "no ring was full";
  region.unlink();
}

// What the application's plugins lost (counted in the region by the agent)
// and what its full catalog refused reach the drops, each under its cause.
TEST(ShmEventPath, LossesCountedInTheRegionAreStatedByCause) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  ShmHeader &h = *region.header();
  h.plugin_drops[PROF_DROP_DEVICE_BUFFER_FULL].store(17);
  h.plugin_drops[PROF_DROP_KERNEL_LOST].store(4);
  h.catalog_overflow.store(2);
  CaptureEnd end;
  end.drops = source.drops();
  EXPECT_EQ(end.lost(PROF_DROP_DEVICE_BUFFER_FULL), 17u);
  EXPECT_EQ(end.lost(PROF_DROP_KERNEL_LOST), 4u);
  EXPECT_EQ(end.lost(PROF_DROP_CATALOG_FULL), 2u);
  EXPECT_EQ(end.lost(PROF_DROP_INVALID_EVENT), 0u);
  region.unlink();
}

// Found by tests/fuzz/shm_region_fuzz (corpus/shm_region/regression-empty-stack):
// an empty stack made the writer pass memcpy a null pointer (UBSan).
TEST(ShmEventPath, AnEmptyStackIsDefinedAndItsSamplesKept) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  const ShmLayout &l = region.layout();
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), l.ring_stride, h.slots, l.ring_count, l.ring_capacity,
                l.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter writer(region);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, "t", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(thread);
  const prof_stack_id stack = writer.intern_stack({});
  ASSERT_NE(stack, 0u);
  pool.emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, 0, 1, 0, stack, 0});
  std::vector<prof_event> drained;
  source.drain([&](prof_event *e, size_t n) { drained.insert(drained.end(), e, e + n); }, true);
  ASSERT_EQ(drained.size(), 1u);
  EXPECT_TRUE(catalog.stacks.frames(static_cast<prof_stack_id>(drained[0].id)).empty());
  region.unlink();
}

// Found by tests/fuzz/shm_region_fuzz (corpus/shm_region/regression-refused-track):
// a track prof's table refuses (here an unknown kind) was mapped to track 0,
// so its events reached the sinks on the root.
TEST(ShmEventPath, EventsOnATrackProfRefusedAreRefusedAndCounted) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  Catalog catalog;
  ShmEventSource source(region, catalog);
  const ShmLayout &l = region.layout();
  ShmHeader &h = *region.header();
  RingPool pool(region.rings(), l.ring_stride, h.slots, l.ring_count, l.ring_capacity,
                l.watermark_events, &h.no_ring_drops, false);
  ShmCatalogWriter writer(region);
  prof_track_desc odd{
      sizeof(prof_track_desc), static_cast<prof_track_kind>(99), 0, "odd", 1, 2, -1, nullptr, 0};
  const prof_track_id track = writer.declare_track(odd);
  ASSERT_NE(track, 0u) << "the application's writer does not check kinds";
  pool.emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, 0, 0, 1, 0, 0, 0});
  std::vector<prof_event> drained;
  source.drain([&](prof_event *e, size_t n) { drained.insert(drained.end(), e, e + n); }, true);
  EXPECT_TRUE(drained.empty());
  uint64_t refused = 0;
  for (const RingDrops &d : source.drops())
    if (d.ring == prof::report::kInvalidEventsRing) refused = d.dropped;
  EXPECT_EQ(refused, 1u);
  region.unlink();
}

// The agent names a process's tracks as each image starts: after an exec the
// new program's names replace the earlier image's; what plugins declare later
// keeps them.
TEST(ShmEventPath, TheImageAProcessRunsNowNamesItsTracks) {
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  ShmCatalogWriter writer(region);
  const auto declare = [&](const char *process_name, const char *thread_name, bool names) {
    prof_track_desc process{
        sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, process_name, 77, 0, -1, nullptr, 0};
    const prof_track_id p = writer.declare_track(process, names);
    prof_track_desc thread{
        sizeof(prof_track_desc), PROF_TRACK_THREAD, p, thread_name, 77, 77, -1, nullptr, 0};
    writer.declare_track(thread, names);
  };
  declare("mpirun", "mpirun", false);               // a plugin in the forked child
  declare("./app --steps 3 (rank 1)", "app", true); // the agent in the exec'd image
  declare("app (rank 1)", "app-main", false);       // a plugin there
  Catalog catalog;
  ShmEventSource source(region, catalog);
  source.sync_catalog();
  ASSERT_EQ(catalog.tracks.size(), 3u) << "one process and one thread track";
  using Renames = std::vector<std::pair<prof_track_id, std::string>>;
  EXPECT_EQ(catalog.tracks.renames_between(0, 9),
            (Renames{{1, "./app --steps 3 (rank 1)"}, {2, "app"}}));
  region.unlink();
}
