#include "core/report/event_columns.hpp"
#include "core/report/event_fields.hpp"
#include <prof/byte_codec.hpp>

#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace prof::report {
namespace {

using namespace prof::report::testing;

// A payload of the first layout as format-1 writers wrote it; `columns` 9
// leaves out the counter ids, as the earliest ones did.
std::vector<uint8_t> layout1_payload(const std::vector<prof_event> &events, size_t columns = 10) {
  std::array<std::vector<uint8_t>, 10> col;
  uint32_t track = 0;
  uint64_t ts = 0;
  uint64_t id = 0;
  for (const auto &e : events) {
    const uint8_t fields = kEventFields[e.type];
    ByteWriter(col[0]).u8(e.type);
    ByteWriter(col[1]).svarint(static_cast<int32_t>(e.track - track));
    track = e.track;
    ByteWriter(col[2]).svarint(static_cast<int64_t>(e.ts - ts));
    ts = e.ts;
    if (fields & kHasDuration) ByteWriter(col[3]).varint(e.duration);
    ByteWriter(col[4]).varint(e.name);
    ByteWriter(col[5]).varint(e.category);
    if (fields & kHasId) {
      ByteWriter(col[6]).svarint(static_cast<int64_t>(e.id - id));
      id = e.id;
    }
    if (fields & kHasFlags) ByteWriter(col[7]).u8(e.flags);
    if (fields & kHasValue) ByteWriter(col[8]).f64(e.value);
    if (fields & kHasCounterId) ByteWriter(col[9]).varint(e.id);
  }
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(events.size());
  w.varint(columns);
  for (size_t c = 0; c < columns; ++c)
    w.varint(col[c].size());
  for (size_t c = 0; c < columns; ++c)
    w.bytes(col[c].data(), col[c].size());
  return payload;
}

std::vector<prof_event> every_type() {
  return {
      slice(2, 100, 50, 3, 4, 77),
      instant(2, 120, 5, 6),
      counter(3, 130, 42.5),
      sample(2, 140, 9),
      flow(2, 150, 77, PROF_FLOW_BEGIN),
      flow(5, 160, 77, PROF_FLOW_END),
  };
}

std::vector<prof_event> edge_values() {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  return {
      slice(UINT32_MAX, kMax, kMax, UINT32_MAX, UINT32_MAX, kMax),
      slice(0, 0, 0, 0, 0, 0), // backwards by UINT64_MAX: a negative delta of the whole range
      instant(7, kMax - 1, 1, 1),
      instant(0, 1, 0, 0),
      sample(1, 5, kMax),
      sample(UINT32_MAX, 3, 0), // timestamps going backwards
      flow(1, 2, 1ull << 63, PROF_FLOW_STEP),
      counter(3, 0, std::numeric_limits<double>::quiet_NaN()),
      counter(3, 1, -std::numeric_limits<double>::infinity()),
      counter(3, 2, std::numeric_limits<double>::infinity()),
      counter(3, 3, -0.0),
      counter(3, 4, std::numeric_limits<double>::denorm_min()),
      counter(3, 5,
              std::bit_cast<double>(uint64_t{0x7ff4000000000123})), // signalling NaN with a payload
  };
}

std::vector<prof_event> round_trip(const std::vector<prof_event> &events) {
  EventColumnEncoder encoder(events.size() + 1);
  encoder.add(events.data(), events.size());
  std::vector<uint8_t> payload;
  encoder.append_payload(payload);
  EXPECT_EQ(payload.size(), encoder.payload_size());
  std::vector<prof_event> decoded;
  EXPECT_TRUE(decode_event_columns(payload, decoded));
  return decoded;
}

TEST(EventColumns, EveryEventTypeRoundTrips) {
  EXPECT_TRUE(same_events(round_trip(every_type()), every_type()));
}

TEST(EventColumns, EdgeValuesRoundTrip) {
  EXPECT_TRUE(same_events(round_trip(edge_values()), edge_values()));
}

TEST(EventColumns, EventsSharingTimesRoundTrip) {
  // Times drawn from a pool larger than the window of times seen, so that
  // some repeat within it and some only beyond it; unknown types too.
  std::vector<uint64_t> pool;
  for (uint64_t i = 0; i < 150; ++i)
    pool.push_back(1'000'000'000'000 + i * 7919 + (i % 3 == 0 ? UINT64_MAX / 2 : 0));
  uint64_t state = 42;
  const auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  std::vector<prof_event> events;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t ts = pool[next() % pool.size()];
    const uint64_t end = next() % 4 == 0 ? ts : pool[next() % pool.size()];
    switch (next() % 6) {
    case 0:
    case 1:
      events.push_back(slice(next() % 40, ts, end - ts, next() % 9, 2, next() % 100));
      break;
    case 2:
      events.push_back(flow(next() % 40, ts, next(), PROF_FLOW_END));
      break;
    case 3:
      events.push_back(counter(3, ts, 0.5 * static_cast<double>(next())));
      break;
    case 4:
      events.push_back(instant(1, ts, 3, 4));
      break;
    default: {
      prof_event odd = slice(9, ts, end - ts, 1, 1, 5);
      odd.type = 100;
      odd.value = 2.5;
      odd.flags = 3;
      events.push_back(odd);
      break;
    }
    }
  }
  EXPECT_TRUE(same_events(round_trip(events), events));
}

TEST(EventColumns, UnknownTypesKeepEveryField) {
  prof_event odd{};
  odd.type = 200;
  odd.flags = 9;
  odd.track = 4;
  odd.ts = 12;
  odd.duration = 34;
  odd.id = 56;
  odd.value = 7.5;
  odd.name = 8;
  odd.category = 9;
  EXPECT_TRUE(same_events(round_trip({odd, odd}), std::vector<prof_event>{odd, odd}));
}

TEST(EventColumns, FieldsATypeDoesNotCarryAreNotStored) {
  prof_event e = instant(1, 10, 2, 3);
  e.duration = 5;
  e.id = 9;
  e.flags = 2;
  prof_event c = counter(1, 20, 4.5);
  c.kind = PROF_CATEGORY_KERNEL;
  const auto decoded = round_trip({e, c});
  ASSERT_EQ(decoded.size(), 2u);
  EXPECT_EQ(decoded[0].duration, 0u);
  EXPECT_EQ(decoded[0].id, 0u);
  EXPECT_EQ(decoded[0].flags, 0u);
  EXPECT_EQ(decoded[0].ts, 10u);
  EXPECT_EQ(decoded[1].kind, 0u); // counters have no category kind
  EXPECT_EQ(decoded[1].value, 4.5);
}

TEST(EventColumns, SlicesAndInstantsKeepTheirKindAndArguments) {
  prof_event s = slice(1, 100, 50, 2, 3, 77);
  s.kind = PROF_CATEGORY_MEMCPY_HTOD;
  s.args = 12;
  prof_event i = instant(2, 120, 4, 5);
  i.kind = PROF_CATEGORY_ANNOTATION;
  i.args = 300000;
  prof_event plain = slice(1, 200, 5, 2, 3, 0);
  const auto decoded = round_trip({s, i, plain});
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0].kind, PROF_CATEGORY_MEMCPY_HTOD);
  EXPECT_EQ(decoded[0].args, 12u);
  EXPECT_EQ(decoded[0].id, 77u);
  EXPECT_EQ(decoded[1].kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(decoded[1].args, 300000u);
  EXPECT_EQ(decoded[2].kind, 0u);
  EXPECT_EQ(decoded[2].args, 0u);
}

TEST(EventColumns, APayloadWrittenBeforeArgumentsReadsWithout) {
  // The same events in a layout-2 payload of twelve columns, as prof wrote
  // before plugin ABI 1.5: the directory's count says 12, the last two
  // columns are absent.
  prof_event s = slice(1, 100, 50, 2, 3, 77);
  s.kind = PROF_CATEGORY_KERNEL;
  s.args = 5;
  EventColumnEncoder encoder(4);
  encoder.add(&s, 1);
  auto pieces = encoder.payload_pieces();
  // Rebuild the directory with 12 columns: count, 0, layout, start, columns, lengths.
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(1);
  w.varint(0);
  w.varint(kEventLayout);
  w.varint(100);
  w.varint(kEventColumnCountBeforeArgs);
  for (size_t c = 0; c < kEventColumnCountBeforeArgs; ++c)
    w.varint(pieces[c + 1].size());
  for (size_t c = 0; c < kEventColumnCountBeforeArgs; ++c)
    payload.insert(payload.end(), pieces[c + 1].begin(), pieces[c + 1].end());
  std::vector<prof_event> decoded;
  ASSERT_TRUE(decode_event_columns(payload, decoded));
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(decoded[0].kind, 0u);
  EXPECT_EQ(decoded[0].args, 0u);
  EXPECT_EQ(decoded[0].duration, 50u);
  EXPECT_EQ(decoded[0].id, 77u);
}

TEST(EventColumns, SlicesKeepTheirUnfinishedFlagFromLayoutThreeOn) {
  prof_event done = slice(1, 100, 50, 2, 3, 7);
  prof_event open = slice(1, 120, 80, 2, 3, 8);
  open.flags = PROF_SLICE_UNFINISHED;
  const std::vector<prof_event> decoded = round_trip({done, open});
  ASSERT_EQ(decoded.size(), 2u);
  EXPECT_EQ(decoded[0].flags, 0u);
  EXPECT_EQ(decoded[1].flags, PROF_SLICE_UNFINISHED);
  EXPECT_EQ(decoded[1].duration, 80u);
}

TEST(EventColumns, EmptyBatchAndClearRestartDeltas) {
  EXPECT_TRUE(round_trip({}).empty());
  EventColumnEncoder encoder(4);
  const std::vector<prof_event> first = {slice(1, 500, 1, 1, 1, 10)};
  encoder.add(first.data(), 1);
  encoder.clear();
  const std::vector<prof_event> second = {slice(1, 7, 1, 1, 1, 3)};
  encoder.add(second.data(), 1);
  std::vector<uint8_t> payload;
  encoder.append_payload(payload);
  std::vector<prof_event> decoded;
  ASSERT_TRUE(decode_event_columns(payload, decoded));
  EXPECT_TRUE(same_events(decoded, second));
}

TEST(EventColumns, SequentialTimestampsAreCompact) {
  std::vector<prof_event> events;
  for (uint64_t i = 0; i < 1000; ++i)
    events.push_back(slice(2, 1'000'000'000'000 + 100 * i, 50, 3, 1, 5000 + i));
  EventColumnEncoder encoder(events.size());
  encoder.add(events.data(), events.size());
  // type 1 + track 1 + ts ref 1 + ts 1 + end ref 1 + duration 1 + name 1 + category 1 + id 1,
  // plus the directory and the first id.
  EXPECT_LT(encoder.payload_size(), 9 * events.size() + 40);
}

TEST(EventColumns, TimesSeenLatelyStoreNoDelta) {
  // Back-to-back slices, each with a flow at its start: after the first
  // event, every ts and every end is a time seen one or two events before.
  std::vector<prof_event> events;
  uint64_t ts = 1'000'000'000'000;
  for (uint64_t i = 0; i < 500; ++i) {
    events.push_back(slice(2, ts, 1000 + i * 7919 % 1000, 3, 1, i));
    events.push_back(flow(4, events.back().ts + events.back().duration, i, PROF_FLOW_BEGIN));
    ts = events.back().ts;
  }
  EventColumnEncoder encoder(events.size());
  encoder.add(events.data(), events.size());
  const auto pieces = encoder.payload_pieces();
  EXPECT_EQ(pieces[1 + 3].size(), 1u); // ts: width 0, the first event's delta from start being 0
  EXPECT_EQ(pieces[1 + 5].size(), 1u + 2 * 500); // duration: two bytes for each slice
  EXPECT_TRUE(same_events(round_trip(events), events));
}

TEST(EventColumns, FirstLayoutPayloadsStillRead) {
  std::vector<prof_event> out;
  ASSERT_TRUE(decode_event_columns(layout1_payload(every_type()), out));
  EXPECT_TRUE(same_events(out, every_type()));
  ASSERT_TRUE(decode_event_columns(layout1_payload(edge_values()), out));
  EXPECT_TRUE(same_events(out, edge_values()));
  ASSERT_TRUE(decode_event_columns(layout1_payload({}), out));
  EXPECT_TRUE(out.empty());
}

TEST(EventColumns, MalformedPayloadsAreRejected) {
  const std::vector<prof_event> events = {slice(2, 100, 50, 3, 4, 77), counter(3, 130, 42.5)};
  EventColumnEncoder encoder(2);
  encoder.add(events.data(), events.size());
  std::vector<uint8_t> payload;
  encoder.append_payload(payload);
  std::vector<prof_event> out;
  ASSERT_TRUE(decode_event_columns(payload, out));

  for (size_t cut = 0; cut < payload.size(); ++cut)
    EXPECT_FALSE(decode_event_columns(std::span(payload).first(cut), out)) << "cut at " << cut;

  auto wrong_count = payload;
  wrong_count[0] = 3; // three events, two type bytes
  EXPECT_FALSE(decode_event_columns(wrong_count, out));

  auto huge_count = payload;
  huge_count[0] = 0xff; // an unterminated varint then garbage
  EXPECT_FALSE(decode_event_columns(huge_count, out));

  ByteReader directory(payload);
  directory.varint(); // count
  ASSERT_EQ(directory.varint(), 0u);
  ASSERT_EQ(directory.varint(), kEventLayout);
  directory.varint(); // start
  const size_t column_count_at = payload.size() - directory.remaining();
  ASSERT_EQ(payload[column_count_at], kEventColumnCount);

  auto few_columns = payload;
  few_columns[column_count_at] = kEventColumnCount - 1;
  EXPECT_FALSE(decode_event_columns(few_columns, out));

  auto later_layout = payload;
  later_layout[2] = kEventLayout + 1;
  EXPECT_FALSE(decode_event_columns(later_layout, out));

  auto few_layout1_columns = layout1_payload(events);
  few_layout1_columns[1] = 8;
  EXPECT_FALSE(decode_event_columns(few_layout1_columns, out));
}

TEST(EventColumns, ATimeNotYetSeenIsRejected) {
  const std::vector<prof_event> events = {instant(1, 100, 2, 3), instant(1, 200, 2, 3)};
  EventColumnEncoder encoder(2);
  encoder.add(events.data(), events.size());
  const auto pieces = encoder.payload_pieces();
  std::vector<uint8_t> payload;
  encoder.append_payload(payload);
  // The second event's ts ref, pointing two times back when one was seen.
  const size_t second_ts_ref = pieces[0].size() + pieces[1].size() + pieces[2].size() + 1;
  ASSERT_EQ(payload[second_ts_ref], 0);
  payload[second_ts_ref] = 2;
  std::vector<prof_event> out;
  EXPECT_FALSE(decode_event_columns(payload, out));
  payload[second_ts_ref] = 1; // the first event's time: well formed, but the ts delta is left over
  EXPECT_FALSE(decode_event_columns(payload, out));
}

TEST(EventColumns, ExtraColumnsFromALaterWriterAreIgnored) {
  const std::vector<prof_event> events = {slice(2, 100, 50, 3, 4, 77)};
  EventColumnEncoder encoder(1);
  encoder.add(events.data(), 1);
  const auto pieces = encoder.payload_pieces();
  // Rebuild the directory with one more column of 2 bytes appended.
  ByteReader directory(pieces[0]);
  const uint64_t count = directory.varint();
  const uint64_t marker = directory.varint();
  const uint64_t layout = directory.varint();
  const uint64_t start = directory.varint();
  ASSERT_EQ(directory.varint(), kEventColumnCount);
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(count);
  w.varint(marker);
  w.varint(layout);
  w.varint(start);
  w.varint(kEventColumnCount + 1);
  for (size_t c = 1; c < pieces.size(); ++c)
    w.varint(pieces[c].size());
  w.varint(2);
  for (size_t c = 1; c < pieces.size(); ++c)
    w.bytes(pieces[c].data(), pieces[c].size());
  w.u16(0xbeef);
  std::vector<prof_event> out;
  ASSERT_TRUE(decode_event_columns(payload, out));
  EXPECT_TRUE(same_events(out, events));
}

TEST(EventColumns, CounterCarriesTheCorrelationIdOfItsWork) {
  prof_event c = counter(3, 130, 42.5);
  c.id = (uint64_t{1234} << 40) | 17;
  const std::vector<prof_event> events = {slice(2, 100, 50, 3, 4, 77), c, counter(3, 140, 1.0)};
  EXPECT_TRUE(same_events(round_trip(events), events));
}

TEST(EventColumns, FirstFormatPayloadWithoutCounterIdsReadsIdZero) {
  // The earliest writers: nine columns, counters without ids.
  prof_event c = counter(3, 130, 42.5);
  c.id = 99;
  std::vector<prof_event> out;
  ASSERT_TRUE(decode_event_columns(layout1_payload({c}, 9), out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, 0u);
  EXPECT_EQ(out[0].value, 42.5);
}

} // namespace
} // namespace prof::report
