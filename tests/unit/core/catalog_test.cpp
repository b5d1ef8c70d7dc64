#include "core/catalog/catalog.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <thread>
#include <vector>

using prof::core::Catalog;

TEST(StringTable, InternsOnceAndIdZeroIsEmpty) {
  Catalog catalog;
  EXPECT_EQ(catalog.strings.text(0), "");
  auto a = catalog.strings.intern("kernel");
  EXPECT_EQ(catalog.strings.intern("kernel"), a);
  EXPECT_NE(catalog.strings.intern("copy"), a);
  EXPECT_EQ(catalog.strings.text(a), "kernel");
  EXPECT_EQ(catalog.strings.text(9999), "");
}

TEST(StringTable, ConcurrentInternsAgree) {
  Catalog catalog;
  std::vector<std::thread> threads;
  std::vector<std::vector<prof_string_id>> ids(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) ids[t].push_back(catalog.strings.intern(std::to_string(i)));
    });
  for (auto &thread : threads) thread.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(ids[t], ids[0]);
  EXPECT_EQ(catalog.strings.size(), 1001u);
}

TEST(TrackTable, DeclaresNestedTracksAndRefusesBadOnes) {
  Catalog catalog;
  prof_track_desc device{sizeof(prof_track_desc), PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, nullptr, 0};
  auto dev = catalog.tracks.declare(&device);
  ASSERT_EQ(dev, 1u);
  prof_track_desc engine{sizeof(prof_track_desc), PROF_TRACK_ENGINE, dev, "SIP 3", 0, 0, 3, nullptr, 7};
  auto eng = catalog.tracks.declare(&engine);
  ASSERT_EQ(eng, 2u);
  const auto *entry = catalog.tracks.find(eng);
  ASSERT_NE(entry, nullptr);
  EXPECT_STREQ(entry->desc.name, "SIP 3");
  EXPECT_EQ(entry->desc.parent, dev);
  EXPECT_EQ(entry->desc.clock, 7u);
  EXPECT_EQ(catalog.strings.text(entry->name_id), "SIP 3");

  prof_track_desc orphan = engine;
  orphan.parent = 99;
  EXPECT_EQ(catalog.tracks.declare(&orphan), 0u);
  EXPECT_EQ(catalog.tracks.last_error(), "track 'SIP 3' names unknown parent 99");
  prof_track_desc unnamed = engine;
  unnamed.name = nullptr;
  EXPECT_EQ(catalog.tracks.declare(&unnamed), 0u);
  EXPECT_EQ(catalog.tracks.declare(nullptr), 0u);
  EXPECT_EQ(catalog.tracks.find(0), nullptr);
  EXPECT_EQ(catalog.tracks.find(42), nullptr);
}

TEST(TrackTable, OneTrackPerProcessAndThread) {
  Catalog catalog;
  prof_track_desc process{sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "app", 42, 0, -1, nullptr, 0};
  auto p1 = catalog.tracks.declare(&process);
  auto p2 = catalog.tracks.declare(&process);
  EXPECT_EQ(p1, p2);
  prof_track_desc thread{sizeof(prof_track_desc), PROF_TRACK_THREAD, p1, "worker", 42, 43, -1, nullptr, 0};
  EXPECT_EQ(catalog.tracks.declare(&thread), catalog.tracks.declare(&thread));
}

// ABI 1.10: each process's stream is its own track under the one device;
// a shared track has no owner; a plugin before 1.10 declares neither.
TEST(TrackTable, DeviceTracksAreOnePerOwnerAndSharedOnesHaveNone) {
  Catalog catalog;
  prof_track_desc device{
      sizeof(prof_track_desc), PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, nullptr, 0,
      PROF_TRACK_SHARED};
  const prof_track_id dev = catalog.tracks.declare(&device);
  EXPECT_EQ(catalog.tracks.declare(&device), dev);
  prof_track_desc stream{
      sizeof(prof_track_desc), PROF_TRACK_ENGINE, dev, "General stream 1", 21, 0, 1, nullptr, 0, 0};
  const prof_track_id first = catalog.tracks.declare(&stream);
  EXPECT_EQ(catalog.tracks.declare(&stream), first);
  stream.pid = 22;
  const prof_track_id second = catalog.tracks.declare(&stream);
  EXPECT_NE(second, first);
  EXPECT_EQ(catalog.tracks.find(second)->desc.pid, 22);

  prof_track_desc odd = device;
  odd.pid = 5;
  odd.flags = PROF_TRACK_SHARED | 0x80u;
  const prof_track_id shared = catalog.tracks.declare(&odd);
  EXPECT_EQ(shared, dev) << "a shared track has no owner; unknown bits are dropped";
  prof_track_desc old = device;
  old.struct_size = offsetof(prof_track_desc, flags);
  old.flags = 0xffu; // past what the plugin knows: never read
  const prof_track_id legacy = catalog.tracks.declare(&old);
  EXPECT_NE(legacy, dev);
  EXPECT_EQ(catalog.tracks.find(legacy)->desc.flags, 0u);
}

// What an owned track's pid names: the process track of that pid, declared
// or restored (a merged report restored may hold two of one pid).
TEST(TrackTable, ProcessesOfAPid) {
  Catalog catalog;
  prof_track_desc process{
      sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "train", 21, 0, -1, nullptr, 0, 0};
  const prof_track_id train = catalog.tracks.declare(&process);
  EXPECT_EQ(catalog.tracks.processes(21), std::vector<prof_track_id>{train});
  EXPECT_TRUE(catalog.tracks.processes(22).empty());
  prof_track_desc thread = process;
  thread.kind = PROF_TRACK_THREAD;
  thread.parent = train;
  thread.tid = 21;
  catalog.tracks.declare(&thread);
  EXPECT_EQ(catalog.tracks.processes(21).size(), 1u) << "threads are no processes";

  Catalog restored;
  process.name = "train [node0]";
  restored.tracks.restore(1, process);
  process.name = "train [node1]";
  restored.tracks.restore(2, process);
  EXPECT_EQ(restored.tracks.processes(21), (std::vector<prof_track_id>{1, 2}));
}

// What the application's processes declare renames: a process that exec'd
// declares its track again under its new program's name.
TEST(TrackTable, ReDeclaredByTheApplicationATrackTakesTheNewName) {
  Catalog catalog;
  prof_track_desc process{
      sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "mpirun", 42, 0, -1, nullptr, 0};
  const auto p = catalog.tracks.declare(&process);
  prof_track_desc thread{
      sizeof(prof_track_desc), PROF_TRACK_THREAD, p, "mpirun", 42, 42, -1, nullptr, 0};
  const auto t = catalog.tracks.declare(&thread);
  EXPECT_EQ(catalog.tracks.renames(), 0u);
  process.name = "app (rank 1)";
  thread.name = "app";
  EXPECT_EQ(catalog.tracks.declare(&process), p) << "declare() keeps the first name";
  EXPECT_EQ(catalog.tracks.renames(), 0u);
  EXPECT_EQ(catalog.tracks.declare_renaming(&process), p);
  EXPECT_EQ(catalog.tracks.declare_renaming(&process), p);
  EXPECT_EQ(catalog.tracks.declare_renaming(&thread), t);
  EXPECT_EQ(catalog.tracks.renames(), 2u) << "the same name again is no rename";
  using Renames = std::vector<std::pair<prof_track_id, std::string>>;
  EXPECT_EQ(catalog.tracks.renames_between(0, 2), (Renames{{p, "app (rank 1)"}, {t, "app"}}));
  EXPECT_EQ(catalog.tracks.renames_between(1, 9), (Renames{{t, "app"}}));
  EXPECT_TRUE(catalog.tracks.renames_between(2, 2).empty());
  EXPECT_EQ(catalog.tracks.find(p)->name, "mpirun") << "the entry itself never changes";
  const prof_track_desc *renamed = catalog.tracks.current(p);
  ASSERT_NE(renamed, nullptr);
  EXPECT_STREQ(renamed->name, "app (rank 1)");
  EXPECT_EQ(renamed->pid, 42);
  EXPECT_STREQ(catalog.tracks.current(t)->name, "app");
  EXPECT_EQ(catalog.tracks.current(99), nullptr);
  // Back to an earlier name is a rename too; other kinds are never renamed.
  process.name = "mpirun";
  catalog.tracks.declare_renaming(&process);
  EXPECT_EQ(catalog.tracks.renames(), 3u);
  prof_track_desc counter{
      sizeof(prof_track_desc), PROF_TRACK_COUNTER, p, "RSS", 42, 0, -1, "bytes", 0};
  const auto c = catalog.tracks.declare_renaming(&counter);
  counter.name = "heap";
  EXPECT_NE(catalog.tracks.declare_renaming(&counter), c);
  EXPECT_EQ(catalog.tracks.renames(), 3u);
  EXPECT_EQ(mark_of(catalog).track_renames, 3u);
}

TEST(StackTable, InternsFrameSequences) {
  Catalog catalog;
  std::vector<prof_string_id> frames{3, 2, 1};
  auto id = catalog.stacks.intern(frames);
  EXPECT_EQ(catalog.stacks.intern(frames), id);
  EXPECT_NE(id, 0u);
  auto back = catalog.stacks.frames(id);
  EXPECT_EQ(std::vector<prof_string_id>(back.begin(), back.end()), frames);
  EXPECT_TRUE(catalog.stacks.frames(0).empty());
  EXPECT_TRUE(catalog.stacks.frames(77).empty());
}
