#include "core/report/byte_codec.hpp"
#include "core/report/event_columns.hpp"

#include "report_test_support.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace prof::report {
namespace {

using namespace prof::report::testing;

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
  const std::vector<prof_event> events = {
      slice(2, 100, 50, 3, 4, 77),
      instant(2, 120, 5, 6),
      counter(3, 130, 42.5),
      sample(2, 140, 9),
      flow(2, 150, 77, PROF_FLOW_BEGIN),
      flow(5, 160, 77, PROF_FLOW_END),
  };
  EXPECT_TRUE(same_events(round_trip(events), events));
}

TEST(EventColumns, EdgeValuesRoundTrip) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const std::vector<prof_event> events = {
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
  e.value = 1.0;
  e.id = 9;
  e.reserved = 3;
  const auto decoded = round_trip({e});
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(decoded[0].duration, 0u);
  EXPECT_EQ(decoded[0].value, 0.0);
  EXPECT_EQ(decoded[0].id, 0u);
  EXPECT_EQ(decoded[0].reserved, 0u);
  EXPECT_EQ(decoded[0].ts, 10u);
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
  // type 1 + track 1 + ts 2 + duration 1 + name 1 + category 1 + id 1, plus the first event's wide
  // values.
  EXPECT_LT(encoder.payload_size(), 8 * events.size() + 32);
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

  auto few_columns = payload;
  few_columns[1] = 3;
  EXPECT_FALSE(decode_event_columns(few_columns, out));
}

TEST(EventColumns, ExtraColumnsFromALaterWriterAreIgnored) {
  const std::vector<prof_event> events = {slice(2, 100, 50, 3, 4, 77)};
  EventColumnEncoder encoder(1);
  encoder.add(events.data(), 1);
  const auto pieces = encoder.payload_pieces();
  // Rebuild the directory with one more column of 2 bytes appended.
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(1);
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
  // A writer of the first format: nine columns, counters without ids.
  prof_event c = counter(3, 130, 42.5);
  c.id = 99;
  EventColumnEncoder encoder(1);
  encoder.add(&c, 1);
  const auto pieces = encoder.payload_pieces();
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(1);
  w.varint(9);
  for (size_t c = 1; c <= 9; ++c)
    w.varint(pieces[c].size());
  for (size_t c = 1; c <= 9; ++c)
    w.bytes(pieces[c].data(), pieces[c].size());
  std::vector<prof_event> out;
  ASSERT_TRUE(decode_event_columns(payload, out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, 0u);
  EXPECT_EQ(out[0].value, 42.5);
}

} // namespace
} // namespace prof::report
