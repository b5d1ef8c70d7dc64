// Decoding synthetic perf records, building thread states from switches,
// and tracking address spaces through mmap, fork and exec.
#include "address_spaces.hpp"
#include "capture.hpp"
#include "capture_emitter.hpp"
#include "perf_records.hpp"
#include "record_processor.hpp"
#include "thread_states.hpp"

#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace prof::cpu_perf {
namespace {

constexpr uint64_t kType =
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;

/// Writes records the way the kernel lays them out.
class RecordWriter {
public:
  std::vector<uint8_t> bytes;
  void begin(uint32_t type, uint16_t misc = 0) {
    start_ = bytes.size();
    perf_event_header h{type, misc, 0};
    put(h);
  }
  template <class T> void put(const T &v) {
    const auto *p = reinterpret_cast<const uint8_t *>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  void text(const std::string &s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
    do bytes.push_back(0);
    while ((bytes.size() - start_) % 8 != 0);
  }
  void trailer(int32_t pid, int32_t tid, uint64_t time, uint32_t cpu) {
    put(pid), put(tid), put(time), put(cpu), put(uint32_t{0});
  }
  void end() {
    const auto size = static_cast<uint16_t>(bytes.size() - start_);
    std::memcpy(&bytes[start_ + 6], &size, 2);
  }
  void sample(int32_t pid, int32_t tid, uint64_t time, uint64_t ip, std::vector<uint64_t> chain) {
    begin(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
    put(ip), put(pid), put(tid), put(time), put(uint32_t{1}), put(uint32_t{0});
    put(uint64_t{chain.size()});
    for (uint64_t c : chain) put(c);
    end();
  }
  void mmap2(int32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff, const std::string &file,
             uint64_t time) {
    begin(PERF_RECORD_MMAP2);
    put(pid), put(pid), put(addr), put(len), put(pgoff);
    for (int i = 0; i < 3; ++i) put(uint64_t{0});
    put(uint32_t{5}), put(uint32_t{0}); // PROT_READ|PROT_EXEC
    text(file);
    trailer(pid, pid, time, 0);
    end();
  }
  void switch_record(int32_t tid, uint64_t time, uint16_t misc) {
    begin(PERF_RECORD_SWITCH, misc);
    trailer(tid, tid, time, 1);
    end();
  }

private:
  size_t start_ = 0;
};

const RecordLayout kLayout{kType, 0, PERF_FORMAT_ID};

TEST(PerfRecords, DecodesSampleWithCallchain) {
  RecordWriter w;
  const uint64_t user = static_cast<uint64_t>(PERF_CONTEXT_USER);
  w.sample(10, 11, 5000, 0x401000, {user, 0x401000, 0x402000});
  const auto records = split_records(w.bytes);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(kind_of(records[0]), RecordKind::Sample);
  const auto s = decode_sample(records[0], kLayout);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ip, 0x401000u);
  EXPECT_EQ(s->id.pid, 10);
  EXPECT_EQ(s->id.tid, 11);
  EXPECT_EQ(s->id.time, 5000u);
  EXPECT_EQ(s->id.cpu, 1u);
  EXPECT_EQ(s->callchain, (std::vector<uint64_t>{user, 0x401000, 0x402000}));
}

TEST(PerfRecords, DecodesMmapCommAndTrailer) {
  RecordWriter w;
  w.mmap2(7, 0x1000, 0x2000, 0x3000, "/usr/lib/libx.so", 42);
  w.begin(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
  w.put(int32_t{7}), w.put(int32_t{8});
  w.text("worker");
  w.trailer(7, 8, 43, 0);
  w.end();
  const auto records = split_records(w.bytes);
  ASSERT_EQ(records.size(), 2u);
  const auto m = decode_mmap(records[0], kLayout);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->addr, 0x1000u);
  EXPECT_EQ(m->len, 0x2000u);
  EXPECT_EQ(m->pgoff, 0x3000u);
  EXPECT_TRUE(m->executable);
  EXPECT_EQ(m->filename, "/usr/lib/libx.so");
  EXPECT_EQ(m->id.time, 42u);
  const auto c = decode_comm(records[1], kLayout);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->exec);
  EXPECT_EQ(c->comm, "worker");
  EXPECT_EQ(c->id.tid, 8);
  EXPECT_EQ(c->id.time, 43u);
}

TEST(PerfRecords, TruncatedAndShortRecordsAreRejected) {
  RecordWriter w;
  w.sample(1, 1, 1, 0x10, {static_cast<uint64_t>(PERF_CONTEXT_USER), 0x10});
  auto cut = w.bytes;
  cut.resize(cut.size() - 4);
  EXPECT_TRUE(split_records(cut).empty());
  // A callchain claiming more entries than the record holds.
  RecordWriter bad;
  bad.begin(PERF_RECORD_SAMPLE);
  bad.put(uint64_t{1}), bad.put(int32_t{1}), bad.put(int32_t{1}), bad.put(uint64_t{1});
  bad.put(uint64_t{0}), bad.put(uint64_t{1000});
  bad.end();
  const auto records = split_records(bad.bytes);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(decode_sample(records[0], kLayout));
}

TEST(PerfRecords, LostAndSwitchRecords) {
  RecordWriter w;
  w.begin(PERF_RECORD_LOST);
  w.put(uint64_t{99}), w.put(uint64_t{17});
  w.trailer(1, 1, 9, 0);
  w.end();
  w.switch_record(5, 10, PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
  const auto records = split_records(w.bytes);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(decode_lost(records[0], kLayout)->lost, 17u);
  const auto s = decode_switch(records[1], kLayout);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->out);
  EXPECT_TRUE(s->preempted);
  EXPECT_EQ(s->id.tid, 5);
  EXPECT_EQ(s->id.cpu, 1u);
}

TEST(PerfRecords, StackCopiesAreTrimmedToWhatTheKernelFilled) {
  constexpr uint64_t kDwarf = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                              PERF_SAMPLE_CPU | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  const RecordLayout layout{kDwarf, 0x3, PERF_FORMAT_ID}; // two registers
  RecordWriter w;
  auto dwarf_sample = [&](uint64_t time, uint64_t copied, uint64_t filled) {
    w.begin(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
    w.put(uint64_t{0x5010}), w.put(int32_t{3}), w.put(int32_t{3}), w.put(time);
    w.put(uint32_t{0}), w.put(uint32_t{0});
    w.put(uint64_t{PERF_SAMPLE_REGS_ABI_64}), w.put(uint64_t{11}), w.put(uint64_t{22});
    w.put(copied);
    for (uint64_t i = 0; i < copied; ++i)
      w.bytes.push_back(static_cast<uint8_t>(i < filled ? i : 0xee));
    w.put(filled);
    w.end();
  };
  dwarf_sample(100, 4096, 100); // 100 bytes used: kept as 104
  w.mmap2(3, 0x5000, 0x1000, 0, "/bin/x", 150);
  dwarf_sample(200, 4096, 4096); // full: unchanged
  dwarf_sample(300, 1024, 0);    // nothing copied
  const size_t before = w.bytes.size();
  const size_t kept = trim_stack_copies(w.bytes, layout);
  EXPECT_EQ(before - kept, (4096 - 104) + (1024 + 8)); // the empty copy loses dyn_size too
  const auto records = split_records(std::span<const uint8_t>(w.bytes.data(), kept));
  ASSERT_EQ(records.size(), 4u);
  const auto first = decode_sample(records[0], layout);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->id.time, 100u);
  ASSERT_EQ(first->stack.size(), 100u);
  EXPECT_EQ(first->stack[99], 99);
  EXPECT_EQ(first->regs, (std::vector<uint64_t>{11, 22}));
  EXPECT_EQ(decode_mmap(records[1], layout)->filename, "/bin/x");
  EXPECT_EQ(decode_sample(records[2], layout)->stack.size(), 4096u);
  const auto last = decode_sample(records[3], layout);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->id.time, 300u);
  EXPECT_TRUE(last->stack.empty());
}

TEST(ThreadStates, SwitchesBecomeRunningWaitingAndNotScheduled) {
  ThreadStates states(100);
  states.on_start(100, 5);
  states.on_switch(110, 5, 0, false, false);
  states.on_switch(150, 5, 0, true, false); // blocked
  states.on_switch(200, 5, 1, false, false);
  states.on_switch(220, 5, 1, true, true); // preempted
  states.on_switch(230, 5, 0, false, false);
  states.on_exit(260, 5);
  states.on_switch(261, 5, 0, true, false); // after exit: ignored
  const auto slices = states.finish(1000);
  ASSERT_EQ(slices.size(), 6u);
  auto expect = [&](size_t i, ThreadState st, uint64_t b, uint64_t e, int cpu) {
    EXPECT_EQ(slices[i].state, st) << i;
    EXPECT_EQ(slices[i].begin, b) << i;
    EXPECT_EQ(slices[i].end, e) << i;
    EXPECT_EQ(slices[i].cpu, cpu) << i;
  };
  expect(0, ThreadState::NotScheduled, 100, 110, -1);
  expect(1, ThreadState::Running, 110, 150, 0);
  expect(2, ThreadState::Waiting, 150, 200, -1);
  expect(3, ThreadState::Running, 200, 220, 1);
  expect(4, ThreadState::NotScheduled, 220, 230, -1);
  expect(5, ThreadState::Running, 230, 260, 0);
  EXPECT_STREQ(state_name(ThreadState::NotScheduled), "Not scheduled");
}

TEST(AddressSpaces, OverlapForkAndExec) {
  AddressSpaces spaces;
  spaces.map(1, 0x1000, 0x3000, 0, "/a");
  spaces.map(1, 0x2000, 0x1000, 0x10000, "/b"); // punches a hole in /a
  EXPECT_EQ(spaces.module_path(spaces.locate(1, 0x1800).module), "/a");
  EXPECT_EQ(spaces.locate(1, 0x2800).offset, 0x10800u);
  const Location tail = spaces.locate(1, 0x3800);
  EXPECT_EQ(spaces.module_path(tail.module), "/a");
  EXPECT_EQ(tail.offset, 0x2800u);
  EXPECT_EQ(spaces.locate(1, 0x9000).module, -1);
  spaces.fork(1, 2);
  spaces.exec(1);
  EXPECT_EQ(spaces.locate(1, 0x1800).module, -1);
  EXPECT_EQ(spaces.module_path(spaces.locate(2, 0x1800).module), "/a");
}

TEST(RecordProcessor, SamplesAreLocatedInTimeOrderAcrossRings) {
  // The mapping arrives on another ring, earlier in time than the sample.
  RecordWriter ring0, ring1;
  const uint64_t user = static_cast<uint64_t>(PERF_CONTEXT_USER);
  ring0.sample(3, 3, 200, 0x5010, {user, 0x5010, 0x5020, 0x9999, 0x7010});
  ring1.mmap2(3, 0x5000, 0x1000, 0x400, "/bin/x", 100);
  ring1.mmap2(3, 0x7000, 0x1000, 0x7, "//anon", 101); // JIT code
  CpuPerfOptions options;
  AddressSpaces spaces;
  Symbolizer symbolizer;
  RecordProcessor processor(options, kLayout, spaces, symbolizer);
  processor.begin(0);
  Capture c;
  processor.finish(1000, {ring0.bytes, ring1.bytes}, c);
  ASSERT_EQ(c.samples.size(), 1u);
  const auto &frames = c.samples[0].frames;
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(spaces.module_path(frames[0].module), "/bin/x");
  EXPECT_EQ(frames[0].offset, 0x410u);
  EXPECT_EQ(frames[1].offset, 0x41fu); // a return address: the call before it
  EXPECT_EQ(frames[2].module, -1);
  EXPECT_EQ(frames[2].offset, 0x9999u);
  EXPECT_EQ(frames[3].module, -1);
  EXPECT_EQ(frames[3].offset, 0x7010u);
}

TEST(RecordProcessor, RecordsAfterTheLimitWaitForTheNextBatchInTimeOrder) {
  // The sample at 200 waits; a new mapping at 250 in the next batch must not
  // change where it was taken.
  RecordWriter first0, first1, second;
  const uint64_t user = static_cast<uint64_t>(PERF_CONTEXT_USER);
  first0.sample(3, 3, 200, 0x5010, {user, 0x5010});
  first1.mmap2(3, 0x5000, 0x1000, 0, "/bin/x", 100);
  second.mmap2(3, 0x5000, 0x1000, 0, "/bin/y", 250);
  second.sample(3, 3, 260, 0x5020, {user, 0x5020});
  CpuPerfOptions options;
  AddressSpaces spaces;
  Symbolizer symbolizer;
  RecordProcessor processor(options, kLayout, spaces, symbolizer);
  processor.begin(0);
  Capture c;
  processor.feed({first0.bytes, first1.bytes}, 150, c);
  EXPECT_TRUE(c.samples.empty());
  processor.feed({{}, second.bytes}, 255, c);
  ASSERT_EQ(c.samples.size(), 1u);
  EXPECT_EQ(spaces.module_path(c.samples[0].frames.at(0).module), "/bin/x");
  processor.finish(1000, {}, c);
  ASSERT_EQ(c.samples.size(), 2u);
  EXPECT_EQ(c.samples[1].time, 260u);
  EXPECT_EQ(spaces.module_path(c.samples[1].frames.at(0).module), "/bin/y");
}

TEST(ThreadStates, ClosedSlicesAreTakenAsTheyCloseAndTheRestAtTheEnd) {
  ThreadStates states(100);
  states.on_switch(110, 5, 0, false, false);
  states.on_switch(150, 5, 0, true, false);
  const auto closed = states.take();
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].end, 150u);
  EXPECT_TRUE(states.take().empty());
  const auto rest = states.finish(300);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].state, ThreadState::Waiting);
  EXPECT_EQ(rest[0].begin, 150u);
  EXPECT_EQ(rest[0].end, 300u);
}

TEST(CaptureEmitter, HoldsANewThreadsEventsUntilTheCutoffSoThatItsTrackHasItsName) {
  testing::FakeSourceHost fake;
  const Host host(fake.api(), &fake);
  CpuPerfOptions options;
  AddressSpaces spaces;
  Symbolizer symbolizer;
  ThreadTable threads{{7, ThreadInfo{7, "parent"}}, {8, ThreadInfo{7, "parent"}}};
  CaptureEmitter emitter(host, options, spaces, symbolizer, threads);
  Capture pending;
  for (uint64_t t : {100, 300})
    pending.samples.push_back({t, 7, 7, 0, {Frame{-1, 0x1234}}});
  pending.samples.push_back({250, 7, 8, 1, {Frame{-1, 0x1234}}});
  pending.states.push_back({7, 50, 150, ThreadState::Running, 0});
  pending.states.push_back({8, 150, 260, ThreadState::Waiting, -1});
  threads[7].name = "main"; // named before anything went out
  // Thread 7 has an event before the cutoff: its track is declared and all
  // its events go; thread 8's wait.
  emitter.emit(pending, 200);
  EXPECT_EQ(fake.samples().size(), 2u);
  EXPECT_EQ(fake.slices().size(), 2u); // the Running slice and its CPU row
  ASSERT_EQ(pending.samples.size(), 1u);
  EXPECT_EQ(pending.samples[0].tid, 8);
  ASSERT_EQ(pending.states.size(), 1u);
  emitter.emit(pending, 200); // what waits stays in place, whole
  ASSERT_EQ(pending.samples.size(), 1u);
  EXPECT_EQ(pending.samples[0].frames.size(), 1u);
  EXPECT_EQ(pending.states.size(), 1u);
  threads[8].name = "worker"; // the new thread names itself
  threads[7].name = "late";   // too late: the track exists
  emitter.emit(pending);
  EXPECT_TRUE(pending.samples.empty());
  EXPECT_TRUE(pending.states.empty());
  EXPECT_EQ(fake.samples().size(), 3u);
  EXPECT_EQ(emitter.emitted(), 6u);
  std::map<int, std::string> names;
  for (const auto &t : fake.tracks())
    if (t.kind == PROF_TRACK_THREAD) names[t.tid] = t.name;
  EXPECT_EQ(names, (std::map<int, std::string>{{7, "main"}, {8, "worker"}}));
}

} // namespace
} // namespace prof::cpu_perf
