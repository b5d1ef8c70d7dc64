// The memory source end to end: `prof --memory-profile PROGRAM` and the
// report's heap instants read back. The three blocks leaks.c leaves are
// reported with their exact bytes at their call sites, and nothing else of
// its own; balanced.cpp's news, deletes and aligned blocks balance to zero;
// the program keeps its exit code; prof stats prints the tables.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;

// The programs this folder builds.
const std::string kLeaks = test_program("memory-leaks");
const std::string kBalanced = test_program("memory-balanced");
const std::string kOwnMalloc = test_program("memory-own-malloc");
const std::string kForkLeaks = test_program("memory-fork-leaks");
const std::string kMappings = test_program("memory-mappings");
const std::string kPeakMoment = test_program("memory-peak-moment");

struct Site {
  uint64_t bytes = 0, blocks = 0;
};

/// A sampled call stack's row: its estimated bytes, their error, the samples.
struct StackRow {
  uint64_t bytes = 0, error = 0, samples = 0;
  std::vector<std::string> frames; ///< leaf first
};

struct Heap {
  std::map<std::string, Site> leaks, at_peak;
  std::map<std::string, Site> prof_live; ///< prof's own blocks still live
  std::vector<StackRow> leak_stacks, stacks_at_peak;
  std::map<std::string, uint64_t> totals; ///< heap/totals arguments
  uint64_t peak = 0;
  uint64_t counters = 0; ///< values on the "Heap in use" track
};

std::vector<prof_arg> args_of(const report::ReportReader &reader, const prof_event &e) {
  const auto found = reader.args().find(static_cast<uint32_t>(e.args));
  return found ? std::vector<prof_arg>(found->begin(), found->end()) : std::vector<prof_arg>{};
}

uint64_t uint_arg(const report::ReportReader &reader, const prof_event &e, const char *key) {
  for (const prof_arg &a : args_of(reader, e))
    if (reader.string(a.key) == key && a.type == PROF_ARG_UINT) return a.value.u;
  return 0;
}

StackRow stack_row(const report::ReportReader &reader, const prof_event &e) {
  StackRow row{uint_arg(reader, e, "bytes"),
               uint_arg(reader, e, "error bytes"),
               uint_arg(reader, e, "samples"),
               {}};
  for (const prof_arg &a : args_of(reader, e)) {
    const report::StackRecord *stack =
        a.type == PROF_ARG_STACK ? reader.stack(static_cast<uint32_t>(a.value.u)) : nullptr;
    if (stack != nullptr)
      for (const uint32_t frame : stack->frames)
        row.frames.emplace_back(reader.string(frame));
  }
  return row;
}

/// The heap instants of every process, by process id (0: all together).
std::map<int, Heap> read_heaps(const fs::path &path) {
  std::map<int, Heap> heaps;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  for (const prof_event &e : reader.read_all_events()) {
    const report::TrackRecord *track = reader.track(e.track);
    Heap &heap = heaps[track != nullptr ? track->pid : 0];
    if (e.type == PROF_EVENT_COUNTER) {
      heap.counters += track != nullptr && track->name == "Heap in use";
      continue;
    }
    if (e.type != PROF_EVENT_INSTANT || e.category == 0) continue;
    const std::string category(reader.string(e.category));
    const std::string name(reader.string(e.name));
    const Site site{uint_arg(reader, e, "bytes"), uint_arg(reader, e, "blocks")};
    if (category == "heap/leak") heap.leaks[name] = site;
    if (category == "heap/prof-live") heap.prof_live[name] = site;
    if (category == "heap/peak-site") heap.at_peak[name] = site;
    if (category == "heap/peak") heap.peak = site.bytes;
    if (category == "heap/leak-stack") heap.leak_stacks.push_back(stack_row(reader, e));
    if (category == "heap/peak-stack") heap.stacks_at_peak.push_back(stack_row(reader, e));
    if (category == "heap/totals")
      for (const prof_arg &a : args_of(reader, e))
        heap.totals[std::string(reader.string(a.key))] = a.value.u;
  }
  return heaps;
}

/// The heap instants of the report's one process.
Heap read_heap(const fs::path &path) {
  std::map<int, Heap> heaps = read_heaps(path);
  for (auto &[pid, heap] : heaps)
    if (!heap.totals.empty()) return heap;
  ADD_FAILURE() << "no process of " << path << " has a heap summary";
  return {};
}

class MemoryE2E : public ::testing::Test {
protected:
  testing::ScratchDir scratch_{"prof-memory", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(MemoryE2E, LeaksAreTheBlocksLeftAtTheirCallSitesExactly) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "-o", (dir_ / "r").string(), kLeaks}, dir_,
                  std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 3) << r.describe(); // the program's own
  const Heap heap = read_heap(dir_ / "r.profrep");
  EXPECT_EQ(heap.leaks.at("leak_small").bytes, 100u);
  EXPECT_EQ(heap.leaks.at("leak_small").blocks, 1u);
  EXPECT_EQ(heap.leaks.at("leak_medium").bytes, 10'000u);
  EXPECT_EQ(heap.leaks.at("leak_large").bytes, 100'000u);
  EXPECT_EQ(heap.leaks.count("churn"), 0u);
  EXPECT_EQ(heap.leaks.count("main"), 0u);
  // prof's own blocks (the agent's, the plugins') are no leak of the program.
  EXPECT_EQ(heap.leaks.count("(prof's own allocations)"), 0u);
  ASSERT_EQ(heap.prof_live.count("(prof's own allocations)"), 1u);
  EXPECT_GT(heap.prof_live.at("(prof's own allocations)").blocks, 0u);
  // Each of them was live at the peak.
  EXPECT_EQ(heap.at_peak.at("leak_large").bytes, 100'000u);
  EXPECT_GE(heap.peak, 110'100u);
  // 10,000 short-lived blocks and the others of churn(), all counted.
  EXPECT_GE(heap.totals.at("allocations"), 10'000u + 3 + 5);
  EXPECT_GE(heap.totals.at("temporary allocations"), 10'000u);
  EXPECT_GE(heap.counters, 1u);

  const RunResult stats =
      run_process({kProf, "stats", "--report", "memory", (dir_ / "r.profrep").string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_NE(stats.out.find("leak  100000      -       1  leak_large"), std::string::npos)
      << stats.out;
  EXPECT_NE(stats.out.find(" blocks (and prof's own, not counted: "), std::string::npos)
      << stats.out;
}

// A 5 MiB block live for a moment, between two of the worker's ticks, and
// then a long churn of small blocks: the call sites at the peak are those of
// that moment, exactly, and they add up to the peak (heaptrack's answer).
TEST_F(MemoryE2E, TheCallSitesAtThePeakAreThoseOfItsMomentExactly) {
  const RunResult r = run_process(
      {kProf, "--quiet", "--memory-profile", "-o", (dir_ / "r").string(), kPeakMoment, "300000"},
      dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const Heap heap = read_heap(dir_ / "r.profrep");
  ASSERT_EQ(heap.at_peak.count("hold_briefly"), 1u) << "the 5 MiB block's site is at the peak";
  EXPECT_EQ(heap.at_peak.at("hold_briefly").bytes, 5u * 1024 * 1024);
  EXPECT_EQ(heap.at_peak.at("hold_briefly").blocks, 1u);
  EXPECT_EQ(heap.at_peak.at("leak_one").bytes, 37'000u);
  EXPECT_EQ(heap.at_peak.at("leak_one").blocks, 37u);
  EXPECT_EQ(heap.at_peak.count("churn"), 0u) << "no churned block was live at the peak";
  uint64_t sum = 0;
  for (const auto &[site, bytes] : heap.at_peak)
    sum += bytes.bytes;
  EXPECT_EQ(sum, heap.peak) << "the rows at the peak are the whole heap at that moment";
  // prof's own blocks (about 200 KiB or more, live at exit) are no part of
  // the program's peak, as heaptrack's are none of its: the peak is the
  // block, the leaks and what the C library and loader hold (a few KiB;
  // and in sanitizer builds, whose preloaded libraries bring libstdc++ into
  // this C program, its 71 KiB emergency pool, as heaptrack's does).
  EXPECT_EQ(heap.at_peak.count("(prof's own allocations)"), 0u);
  ASSERT_EQ(heap.prof_live.count("(prof's own allocations)"), 1u);
  EXPECT_GT(heap.prof_live.at("(prof's own allocations)").bytes, 64u * 1024);
  EXPECT_LT(heap.peak, 5u * 1024 * 1024 + 37'000 + 96 * 1024);
  EXPECT_EQ(heap.leaks.at("leak_one").bytes, 37'000u);
  EXPECT_EQ(heap.leaks.count("hold_briefly"), 0u);
  EXPECT_GE(heap.totals.at("allocations"), 300'000u + 38);

  const RunResult stats =
      run_process({kProf, "stats", "--report", "memory", (dir_ / "r.profrep").string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_NE(stats.out.find("; call sites at the peak:"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("peak  5242880      -       1  hold_briefly"), std::string::npos)
      << stats.out;
}

// With a stack for every allocation (a sample period of one byte), the
// leaks' stacks are exact too: their bytes, no error, and the frames from
// the leaking function out to main.
TEST_F(MemoryE2E, EveryAllocationsStackNamesTheLeaksPathFromMain) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "--plugin", "memory stack-sample-bytes=1",
                   "-o", (dir_ / "r").string(), kLeaks},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 3) << r.describe();
  const Heap heap = read_heap(dir_ / "r.profrep");
  EXPECT_EQ(heap.totals.at("stack sample bytes"), 1u);
  std::map<std::string, StackRow> by_leaf;
  for (const StackRow &row : heap.leak_stacks)
    if (!row.frames.empty()) by_leaf[row.frames.front()] = row;
  for (const auto &[leaf, bytes] : {std::pair<std::string, uint64_t>{"leak_small", 100},
                                    {"leak_medium", 10'000},
                                    {"leak_large", 100'000}}) {
    SCOPED_TRACE(leaf);
    ASSERT_EQ(by_leaf.count(leaf), 1u);
    const StackRow &row = by_leaf[leaf];
    EXPECT_EQ(row.bytes, bytes);
    EXPECT_EQ(row.error, 0u);
    EXPECT_EQ(row.samples, 1u);
    ASSERT_GE(row.frames.size(), 2u);
    EXPECT_EQ(row.frames[1], "main");
  }
  EXPECT_EQ(by_leaf.count("churn"), 0u); // freed
  ASSERT_FALSE(heap.stacks_at_peak.empty());

  const RunResult stats =
      run_process({kProf, "stats", "--report", "memory", (dir_ / "r.profrep").string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_NE(stats.out.find("live at exit by call stack (every allocation's stack)"),
            std::string::npos)
      << stats.out;
  EXPECT_NE(stats.out.find("leak-stack  100000      0       1  leak_large <- main"),
            std::string::npos)
      << stats.out;
}

// --memory-profile events: each allocation and free made while the source
// runs is a memory instant on its thread with the event model's arguments,
// each free after the allocation of its block.
TEST_F(MemoryE2E, EventsPutEachAllocationAndFreeOnItsThread) {
  const RunResult r = run_process(
      {kProf, "--quiet", "--memory-profile", "events", "-o", (dir_ / "r").string(), kLeaks}, dir_,
      std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 3) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "r.profrep").string()));
  std::map<uint64_t, uint64_t> live; // address -> bytes, from the events
  std::map<uint64_t, int> allocs_by_size;
  int frees = 0, unmatched = 0, mismatched = 0;
  // In time order: the last events come from the exiting thread's ring, the
  // others from the worker's, and the report keeps rings in drain order.
  std::vector<prof_event> events;
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_INSTANT && e.kind == PROF_CATEGORY_MEMORY) events.push_back(e);
  std::stable_sort(events.begin(), events.end(),
                   [](const prof_event &a, const prof_event &b) { return a.ts < b.ts; });
  for (const prof_event &e : events) {
    const report::TrackRecord *track = reader.track(e.track);
    ASSERT_NE(track, nullptr);
    EXPECT_EQ(track->kind, PROF_TRACK_THREAD);
    EXPECT_EQ(track->tid, track->pid); // the program's one thread
    std::string operation, memory;
    for (const prof_arg &a : args_of(reader, e)) {
      if (reader.string(a.key) == PROF_MEMORY_ARG_OPERATION) operation = reader.string(a.value.s);
      if (reader.string(a.key) == PROF_MEMORY_ARG_MEMORY) memory = reader.string(a.value.s);
    }
    EXPECT_EQ(memory, "heap");
    const uint64_t address = uint_arg(reader, e, PROF_MEMORY_ARG_ADDRESS);
    const uint64_t bytes = uint_arg(reader, e, PROF_MEMORY_ARG_BYTES);
    if (operation == "alloc") {
      live[address] = bytes;
      ++allocs_by_size[bytes];
    } else {
      ASSERT_EQ(operation, "free");
      ++frees;
      const auto found = live.find(address);
      if (found == live.end()) {
        ++unmatched; // allocated before the source started
        continue;
      }
      mismatched += found->second != bytes; // the events between them were dropped
      live.erase(found);
    }
  }
  EXPECT_EQ(allocs_by_size[100'000], 1);
  EXPECT_EQ(allocs_by_size[10'000], 1);
  EXPECT_GE(allocs_by_size[100], 1);
  // A machine too busy for prof's drain may lose some, counted: a free then
  // finds no block, or the block of a lost free at the same address.
  const uint64_t dropped = reader.total_dropped();
  EXPECT_GE(frees + dropped, 10'000u);
  EXPECT_LE(static_cast<uint64_t>(mismatched), dropped);
  EXPECT_LE(static_cast<uint64_t>(unmatched), 10 + dropped);
  // The leaked blocks are still live at the end of the events.
  int leaked = 0;
  for (const auto &[address, bytes] : live)
    leaked += bytes == 100'000 || bytes == 10'000;
  EXPECT_EQ(leaked, 2);
}

// Anonymous mappings unmapped in part (head, tail, middle, a span across
// two): the counter's last value is what stays mapped, to the byte.
TEST_F(MemoryE2E, MappingsUnmappedInPartKeepTheirRest) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "-o", (dir_ / "r").string(), kMappings},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 5) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "r.profrep").string()));
  double last = -1;
  for (const prof_event &e : reader.read_all_events()) {
    const report::TrackRecord *track = reader.track(e.track);
    if (e.type == PROF_EVENT_COUNTER && track != nullptr && track->name == "Anonymous mappings")
      last = e.value;
  }
  EXPECT_EQ(last, 25.0 * static_cast<double>(sysconf(_SC_PAGESIZE)));
}

TEST_F(MemoryE2E, NewAndDeleteOfEveryFormBalanceToZero) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "-o", (dir_ / "r").string(), kBalanced},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const Heap heap = read_heap(dir_ / "r.profrep");
  for (const auto &[site, bytes] : heap.leaks) {
    EXPECT_EQ(site.find("work"), std::string::npos) << site << " " << bytes.bytes;
    EXPECT_EQ(site.find("main"), std::string::npos) << site << " " << bytes.bytes;
    EXPECT_EQ(site.find("std::vector"), std::string::npos) << site << " " << bytes.bytes;
  }
  // 4 threads and main: 8,100 rounds of 5 blocks and a vector of 20 strings.
  EXPECT_GE(heap.totals.at("allocations"), 8'100u * 25);
  EXPECT_EQ(heap.totals.at("frees of unseen blocks"), 0u);
}

// An allocator preloaded by the user comes after prof's hooks, which call
// it: its blocks are counted as the C library's are (Debian's jemalloc and
// tcmalloc, which tools/setup installs).
TEST_F(MemoryE2E, APreloadedAllocatorIsCountedThroughTheHooks) {
  // The user's LD_PRELOAD follows the agent's libraries, not replaces them.
  const RunResult printed =
      run_process({kProf, "--quiet", "--print-app-log", "--memory-profile", "--env-var",
                   "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "-o",
                   (dir_ / "env").string(), "/usr/bin/printenv", "LD_PRELOAD"},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(printed.exit_code, 0) << printed.describe();
  EXPECT_NE(printed.out.find("libprof-agent.so:"), std::string::npos) << printed.out;
  EXPECT_NE(printed.out.find("libprof-memory.so:/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"),
            std::string::npos)
      << printed.out;

  for (const char *library : {"/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
                              "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4"}) {
    if (!fs::exists(library)) {
      ADD_FAILURE() << library << " is missing: tools/setup installs libjemalloc2 and "
                    << "libtcmalloc-minimal4";
      continue;
    }
    const fs::path report =
        dir_ /
        (std::string(library).find("jemalloc") != std::string::npos ? "jemalloc" : "tcmalloc");
    // Given to the application alone (prof itself may be a sanitizer build).
    const RunResult r =
        run_process({kProf, "--quiet", "--memory-profile", "--env-var",
                     std::string("LD_PRELOAD=") + library, "-o", report.string(), kLeaks},
                    dir_, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 3) << library << r.describe();
    const Heap heap = read_heap(report.string() + ".profrep");
    EXPECT_EQ(heap.leaks.at("leak_small").bytes, 100u) << library;
    EXPECT_EQ(heap.leaks.at("leak_medium").bytes, 10'000u) << library;
    EXPECT_EQ(heap.leaks.at("leak_large").bytes, 100'000u) << library;
    EXPECT_EQ(heap.leaks.count("churn"), 0u) << library;
  }
}

// A program that defines malloc itself comes before prof's hooks: it runs
// as before, and prof says what it could not see.
TEST_F(MemoryE2E, AProgramWithItsOwnMallocRunsAndProfSaysItIsNotSeen) {
  const RunResult r =
      run_process({kProf, "--memory-profile", "-o", (dir_ / "r").string(), kOwnMalloc}, dir_,
                  std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 5) << r.describe();
  // Its own malloc saw its 1,001 blocks, and the C library's stdio's.
  const auto said = r.err.find("own allocator calls: ");
  ASSERT_NE(said, std::string::npos) << r.describe();
  EXPECT_GE(std::stoul(r.err.substr(said + 21)), 1001u) << r.describe();
  EXPECT_NE((r.out + r.err).find("which comes before prof's: its allocations are not profiled"),
            std::string::npos)
      << r.describe();
  const Heap heap = read_heap(dir_ / "r.profrep");
  EXPECT_EQ(heap.leaks.count("main"), 0u); // strdup's block went to the program's malloc
}

// A forked child reports its own blocks on its own track, not those it
// inherited; the parent its own.
TEST_F(MemoryE2E, AForkedChildReportsItsOwnHeap) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "-o", (dir_ / "r").string(), kForkLeaks},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::map<std::string, std::vector<uint64_t>> found; // leak site -> bytes in each process
  int processes = 0;
  for (const auto &[pid, heap] : read_heaps(dir_ / "r.profrep")) {
    if (heap.leaks.empty()) continue;
    ++processes;
    for (const auto &[site, bytes] : heap.leaks)
      found[site].push_back(bytes.bytes);
  }
  EXPECT_EQ(processes, 2);
  EXPECT_EQ(found["parent_leak"], std::vector<uint64_t>{1000});
  EXPECT_EQ(found["child_leak"], std::vector<uint64_t>{2000});
}

// CPython (Debian's /usr/bin/python3) under the hooks: it runs, threads and
// forks, keeps its exit code, and the blocks it keeps are in the heap, the
// sampled stacks of its large buffers with the Python function that made
// them and the line of the module that called it.
TEST_F(MemoryE2E, APythonProgramRunsAndItsBlocksAreCounted) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  const RunResult r =
      run_process({kProf, "--quiet", "--print-app-log", "--memory-profile", "-o",
                   (dir_ / "r").string(), "/usr/bin/python3", PROF_MEMORY_PYTHON_HEAP},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_NE(r.out.find("done"), std::string::npos) << r.describe();
  // Debian's python3 is no PIE: malloc's address in it is its PLT entry,
  // which leads to the hooks. No warning says otherwise.
  EXPECT_EQ(r.err.find("comes before prof's"), std::string::npos) << r.describe();
  // The child ends with os._exit(), which runs no exit handlers: only the
  // program's own exit brings a summary.
  int summaries = 0;
  for (const auto &[pid, heap] : read_heaps(dir_ / "r.profrep")) {
    if (heap.totals.empty()) continue;
    ++summaries;
    // The kept bytearrays were live at the peak; Python frees them at exit.
    EXPECT_GE(heap.peak, 1'000'000u);
    EXPECT_GE(heap.totals.at("allocations"), 1000u);
    // Four 4 MiB buffers, each sampled with probability 1 - exp(-8).
    const StackRow *buffers = nullptr;
    for (const StackRow &row : heap.stacks_at_peak)
      for (size_t i = 0; i + 1 < row.frames.size() && buffers == nullptr; ++i)
        if (row.frames[i].starts_with("hold_buffers (") &&
            row.frames[i].find("python_heap.py:") != std::string::npos &&
            row.frames[i + 1].starts_with("<module> ("))
          buffers = &row;
    ASSERT_NE(buffers, nullptr) << "no stack through hold_buffers among "
                                << heap.stacks_at_peak.size();
    EXPECT_GE(buffers->samples, 1u);
    EXPECT_NEAR(double(buffers->bytes), 16.0 * (1 << 20), double(buffers->error) + 1);
  }
  EXPECT_EQ(summaries, 1);
}

TEST_F(MemoryE2E, TheCaptureSummaryShowsTheHeap) {
  const RunResult r = run_process({kProf, "--memory-profile", "-o", (dir_ / "r").string(), kLeaks},
                                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(r.out.find("live at exit (leaks)"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("leak_medium"), std::string::npos) << r.describe();
}

} // namespace
} // namespace prof::e2e
