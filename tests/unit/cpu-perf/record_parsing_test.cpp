// Decoding synthetic perf records, building thread states from switches,
// and tracking address spaces through mmap, fork and exec.
#include "address_spaces.hpp"
#include "capture.hpp"
#include "perf_records.hpp"
#include "record_processor.hpp"
#include "thread_states.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <cstring>

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
  const Capture c = processor.process({ring0.bytes, ring1.bytes}, 0, 1000);
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

} // namespace
} // namespace prof::cpu_perf
