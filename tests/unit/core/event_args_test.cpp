// Typed arguments on the event path: packed after their event in a ring,
// kept together by the ring, folded into the catalog's argument sets by the
// drain, so sinks see one event with an argument set id.
#include "core/catalog/args_folding.hpp"
#include "core/events/event_bus.hpp"
#include "core/events/event_pump.hpp"
#include "core/runtime/event_args_record.hpp"
#include "core/runtime/host_emitters.hpp"
#include "core/runtime/ring_buffer.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace prof::core;
using prof::arg_double;
using prof::arg_int;
using prof::arg_string;
using prof::arg_uint;

namespace {

bool same(const prof_arg &a, const prof_arg &b) {
  return a.key == b.key && a.type == b.type && a.value.u == b.value.u;
}

prof_event plain_slice(uint64_t ts) {
  prof_event e{};
  e.type = PROF_EVENT_SLICE;
  e.track = 1;
  e.name = 2;
  e.ts = ts;
  e.duration = 5;
  return e;
}

/// A ring in owned memory.
struct OwnedRing {
  explicit OwnedRing(uint64_t capacity)
      : memory(static_cast<char *>(
            ::operator new(RingBuffer::bytes_for(capacity), std::align_val_t(64)))),
        ring(RingBuffer::format(memory, capacity)) {}
  ~OwnedRing() { ::operator delete(memory, std::align_val_t(64)); }
  char *memory;
  RingBuffer ring;
};

} // namespace

TEST(EventArgs, PackedRecordsGiveBackEveryTypeInOrder) {
  prof_arg args[5] = {arg_uint(1, UINT64_MAX), arg_int(2, -7), arg_double(3, 0.25),
                      arg_string(4, 99), arg_uint(5, 0)};
  args[3].value.u |= 0xdead000000000000ull; // garbage above a string id is not kept
  prof_event records[kMaxRecordsPerEvent];
  const uint32_t n = pack_event_args(plain_slice(10), args, 5, records);
  ASSERT_EQ(n, 3u); // the event, then 3 + 2 arguments
  EXPECT_EQ(records[0].ts, 10u);
  std::vector<prof_arg> back;
  for (uint32_t r = 1; r < n; ++r) {
    EXPECT_EQ(records[r].type, kArgsRecord);
    prof_arg out[kArgsPerRecord];
    const uint32_t got = unpack_args_record(records[r], out);
    back.insert(back.end(), out, out + got);
  }
  ASSERT_EQ(back.size(), 5u);
  args[3].value.u &= 0xffffffffu;
  for (size_t i = 0; i < 5; ++i)
    EXPECT_TRUE(same(back[i], args[i])) << i;
}

TEST(EventArgs, MoreThanTheMostKeepsTheFirst) {
  std::vector<prof_arg> args;
  for (uint32_t i = 1; i <= PROF_MAX_ARGS + 4; ++i)
    args.push_back(arg_uint(i, i));
  prof_event records[kMaxRecordsPerEvent];
  const uint32_t n =
      pack_event_args(plain_slice(1), args.data(), static_cast<uint32_t>(args.size()), records);
  EXPECT_EQ(n, kMaxRecordsPerEvent);
  ArgsTable table;
  std::vector<prof_event> batch(records, records + n);
  ASSERT_EQ(fold_args(batch.data(), batch.size(), table), 1u);
  const auto kept = table.args(static_cast<prof_args_id>(batch[0].args));
  ASSERT_EQ(kept.size(), PROF_MAX_ARGS);
  EXPECT_EQ(kept.back().key, PROF_MAX_ARGS);
}

TEST(EventArgs, AGroupGoesIntoARingWholeOrNotAtAll) {
  OwnedRing owned(8);
  RingBuffer &ring = owned.ring;
  for (uint64_t i = 0; i < 6; ++i)
    ASSERT_TRUE(ring.push(plain_slice(i)));
  const prof_arg args[4] = {arg_uint(1, 1), arg_uint(2, 2), arg_uint(3, 3), arg_uint(4, 4)};
  prof_event records[kMaxRecordsPerEvent];
  const uint32_t n = pack_event_args(plain_slice(100), args, 4, records); // 3 records
  EXPECT_FALSE(ring.push_group(records, n));                              // 2 slots left
  EXPECT_EQ(ring.dropped(), 1u); // one event lost, counted once
  prof_event out[8];
  EXPECT_EQ(ring.pop(out, 8), 6u);
  EXPECT_TRUE(ring.push_group(records, n));
  EXPECT_EQ(ring.pop(out, 8), 3u);
  EXPECT_EQ(out[0].ts, 100u);
}

TEST(EventArgs, APopNeverEndsBetweenAnEventAndItsArguments) {
  OwnedRing owned(64);
  RingBuffer &ring = owned.ring;
  const prof_arg args[4] = {arg_uint(1, 1), arg_uint(2, 2), arg_uint(3, 3), arg_uint(4, 4)};
  prof_event records[kMaxRecordsPerEvent];
  for (uint64_t i = 0; i < 5; ++i) {
    const uint32_t n = pack_event_args(plain_slice(i), args, 4, records); // 3 records
    ASSERT_TRUE(ring.push_group(records, n));
  }
  prof_event out[kMaxRecordsPerEvent];
  size_t total = 0;
  for (size_t got; (got = ring.pop(out, kMaxRecordsPerEvent - 2)) > 0; total += got) {
    EXPECT_EQ(got % 3, 0u); // whole groups only
    EXPECT_NE(out[0].type, kArgsRecord);
  }
  EXPECT_EQ(total, 15u);
}

// A flight recorder frees the sets no kept event refers to; later interns
// reuse their ids, and equal arguments still share one set.
TEST(EventArgs, ReleasedSetsAreFreedAndTheirIdsReused) {
  ArgsTable table;
  const auto set = [&table](uint64_t value) {
    const prof_arg args[1] = {arg_uint(7, value)};
    return table.intern({args, 1});
  };
  const prof_args_id a = set(1), b = set(2), c = set(3);
  ASSERT_EQ(table.live(), 3u);
  std::vector<bool> referenced(table.size());
  referenced[b] = true;
  EXPECT_EQ(table.release_unreferenced(referenced), 2u);
  EXPECT_EQ(table.live(), 1u);
  EXPECT_TRUE(table.args(a).empty());
  EXPECT_EQ(table.args(b)[0].value.u, 2u) << "a referenced set stays, at its id";
  EXPECT_EQ(set(2), b) << "and is still found";
  const prof_args_id d = set(4), e = set(5);
  EXPECT_TRUE((d == a || d == c) && (e == a || e == c) && d != e) << "freed ids reused";
  EXPECT_EQ(table.size(), 4u) << "no new slot while freed ones remain";
  EXPECT_EQ(table.args(d)[0].value.u, 4u);
  EXPECT_EQ(set(4), d);
  EXPECT_EQ(table.release_unreferenced(referenced), 2u) << "d and e";
  EXPECT_EQ(table.release_unreferenced(referenced), 0u) << "each freed once";
}

TEST(EventArgs, FoldingInternsSetsAndDropsWhatItCannotTrust) {
  ArgsTable table;
  const prof_arg bytes[1] = {arg_uint(7, 4096)};
  prof_event a[kMaxRecordsPerEvent], b[kMaxRecordsPerEvent];
  const uint32_t na = pack_event_args(plain_slice(1), bytes, 1, a);
  const uint32_t nb = pack_event_args(plain_slice(2), bytes, 1, b);
  prof_event orphan = a[1]; // an arguments record whose event never came
  prof_event bad = a[1];
  bad.kind = 9; // an unknown argument type
  std::vector<prof_event> batch{orphan};
  batch.insert(batch.end(), a, a + na);
  batch.push_back(plain_slice(3));
  batch.insert(batch.end(), b, b + nb);
  batch.push_back(plain_slice(4));
  batch.push_back(bad);
  const size_t kept = fold_args(batch.data(), batch.size(), table);
  ASSERT_EQ(kept, 4u);
  EXPECT_EQ(batch[0].ts, 1u);
  EXPECT_EQ(batch[1].ts, 3u);
  EXPECT_EQ(batch[2].ts, 2u);
  EXPECT_EQ(batch[3].ts, 4u);
  EXPECT_NE(batch[0].args, 0u);
  EXPECT_EQ(batch[0].args, batch[2].args); // equal arguments, one set
  EXPECT_EQ(batch[1].args, 0u);
  EXPECT_EQ(batch[3].args, 0u); // its only argument had an unknown type
  ASSERT_EQ(table.args(static_cast<prof_args_id>(batch[0].args)).size(), 1u);
  EXPECT_EQ(table.size(), 2u); // the empty set and one more
}

namespace {
EventBus *g_bus = nullptr;
struct TestRings {
  static void emit(void *, const prof_event &e) { g_bus->emit(e); }
  static void emit_group(void *, const prof_event *r, uint32_t n) { g_bus->emit_group(r, n); }
};
struct Collect : EventSink {
  std::vector<prof_event> events;
  void consume(const prof_event *e, size_t n) override { events.insert(events.end(), e, e + n); }
};
} // namespace

TEST(EventArgs, TheDrainHandsSinksEventsWithTheirArgumentSets) {
  Catalog catalog;
  EventBus bus(EventBusConfig{1 << 20, 1 << 19, 2});
  g_bus = &bus;
  Collect sink;
  EventPump pump(bus, catalog, {&sink});
  const prof_string_id bytes = catalog.strings.intern("bytes");
  const prof_string_id peer = catalog.strings.intern("peer");
  const prof_string_id rank = catalog.strings.intern("rank 1");
  using Emitters = HostEmitters<TestRings>;
  for (uint64_t i = 0; i < 1000; ++i) {
    const prof_arg args[2] = {arg_uint(bytes, i % 4), arg_string(peer, rank)};
    Emitters::emit_slice_args(nullptr, 1, i, 1, 2, 0, 0, PROF_CATEGORY_COMMUNICATION, args, 2);
    Emitters::emit_instant_args(nullptr, 1, i, 3, 0, PROF_CATEGORY_ANNOTATION, nullptr, 0);
  }
  pump.drain_now(true);
  g_bus = nullptr;
  ASSERT_EQ(sink.events.size(), 2000u);
  for (size_t i = 0; i < sink.events.size(); i += 2) {
    const prof_event &s = sink.events[i];
    ASSERT_EQ(s.type, PROF_EVENT_SLICE);
    EXPECT_EQ(s.kind, PROF_CATEGORY_COMMUNICATION);
    const auto args = catalog.args.args(static_cast<prof_args_id>(s.args));
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].value.u, (i / 2) % 4);
    EXPECT_EQ(args[1].value.s, rank);
    EXPECT_EQ(sink.events[i + 1].kind, PROF_CATEGORY_ANNOTATION);
    EXPECT_EQ(sink.events[i + 1].args, 0u);
  }
  EXPECT_EQ(catalog.args.size(), 5u); // four sets of values and the empty one
}
