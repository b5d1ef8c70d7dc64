#include "core/report/record_codec.hpp"

#include "core/report/chunk.hpp"
#include "tests/support/report_test_support.hpp"
#include <prof/byte_codec.hpp>

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace prof::report {
namespace {

using namespace prof::report::testing;

// Every strict prefix of a payload must be rejected.
template <typename Decode>
void expect_prefixes_rejected(const std::vector<uint8_t> &payload, Decode decode) {
  for (size_t cut = 0; cut < payload.size(); ++cut)
    EXPECT_FALSE(decode(std::span(payload).first(cut))) << "prefix of " << cut << " bytes";
}

TEST(RecordCodec, HeaderRoundTripsAndKeepsItsVersion) {
  std::vector<uint8_t> payload;
  encode_header(sample_header(), kFormatVersion, payload);
  Header decoded;
  ASSERT_TRUE(decode_header(payload, decoded));
  Header expected = sample_header();
  expected.format_version = kFormatVersion;
  EXPECT_EQ(decoded, expected);
  uint32_t version = 0;
  ASSERT_TRUE(peek_format_version(payload, version));
  EXPECT_EQ(version, kFormatVersion);
  // The rank came after the first release, the world size after it: a
  // header that ends before either is a whole header of that release. Every
  // other prefix is cut.
  const size_t before_world = payload.size() - 1 - expected.world_size.size();
  const size_t before_rank = before_world - 1 - expected.rank.size();
  Header without_rank, without_world;
  ASSERT_TRUE(decode_header(std::span(payload).first(before_rank), without_rank));
  EXPECT_EQ(without_rank.rank, "");
  EXPECT_EQ(without_rank.session_start_ns, expected.session_start_ns);
  ASSERT_TRUE(decode_header(std::span(payload).first(before_world), without_world));
  EXPECT_EQ(without_world.rank, expected.rank);
  EXPECT_EQ(without_world.world_size, "");
  for (size_t cut = 0; cut < payload.size(); ++cut) {
    if (cut == before_rank || cut == before_world) continue;
    Header h;
    EXPECT_FALSE(decode_header(std::span(payload).first(cut), h)) << "cut at " << cut;
  }
}

TEST(RecordCodec, StringsRoundTrip) {
  const std::string with_nul("a\0b", 3);
  const std::string_view texts[] = {"", "x", with_nul, std::string_view("\xff\xfe", 2)};
  std::vector<uint8_t> payload;
  encode_strings(UINT32_MAX - 3, texts, payload);
  uint32_t first = 0;
  std::vector<std::string> decoded;
  ASSERT_TRUE(decode_strings(payload, first, decoded));
  EXPECT_EQ(first, UINT32_MAX - 3);
  ASSERT_EQ(decoded.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(decoded[i], texts[i]);
  expect_prefixes_rejected(payload, [](auto p) {
    uint32_t f;
    std::vector<std::string> t;
    return decode_strings(p, f, t);
  });
}

TEST(RecordCodec, StringIdsPastTheIdRangeAreRejected) {
  const std::string_view texts[] = {"a", "b"};
  std::vector<uint8_t> payload;
  encode_strings(UINT32_MAX, texts, payload);
  uint32_t first;
  std::vector<std::string> decoded;
  EXPECT_FALSE(decode_strings(payload, first, decoded));
}

TEST(RecordCodec, TracksRoundTripWithEdgeValues) {
  auto tracks = sample_tracks();
  tracks.push_back({UINT32_MAX, PROF_TRACK_CUSTOM, UINT32_MAX, "", INT32_MIN, INT32_MAX, INT32_MIN,
                    "bytes/s", UINT32_MAX});
  std::vector<uint8_t> payload;
  encode_tracks(tracks, payload);
  std::vector<TrackRecord> decoded;
  ASSERT_TRUE(decode_tracks(payload, decoded));
  EXPECT_EQ(decoded, tracks);
  expect_prefixes_rejected(payload, [](auto p) {
    std::vector<TrackRecord> t;
    return decode_tracks(p, t);
  });
}

TEST(RecordCodec, TrackKindsOutsideTheEnumAreRejected) {
  TrackRecord bad = sample_tracks()[0];
  std::vector<uint8_t> payload;
  encode_tracks(std::span(&bad, 1), payload);
  payload[2] = 99; // count, id, kind
  std::vector<TrackRecord> decoded;
  EXPECT_FALSE(decode_tracks(payload, decoded));
}

TEST(RecordCodec, ArgumentSetsRoundTripEveryTypeAndEdgeValue) {
  const std::vector<ArgsRecord> sets = {
      {1, {prof::arg_uint(3, UINT64_MAX), prof::arg_int(4, INT64_MIN), prof::arg_int(4, 7)}},
      {UINT32_MAX,
       {prof::arg_double(5, -0.0), prof::arg_double(5, std::numeric_limits<double>::infinity()),
        prof::arg_string(6, UINT32_MAX), prof::arg_stack(6, UINT32_MAX), prof::arg_stack(6, 0)}},
      {7, {}}};
  std::vector<uint8_t> payload;
  encode_args(sets, payload);
  std::vector<ArgsRecord> back;
  ASSERT_TRUE(decode_args(payload, back));
  EXPECT_EQ(back, sets);
  expect_prefixes_rejected(payload, [](auto p) {
    std::vector<ArgsRecord> v;
    return decode_args(p, v);
  });
}

TEST(RecordCodec, ArgumentsOfAnUnknownTypeAreRejected) {
  prof_arg odd = prof::arg_uint(3, 1);
  odd.type = 9;
  std::vector<uint8_t> payload;
  encode_args(std::vector<ArgsRecord>{{1, {odd}}}, payload);
  std::vector<ArgsRecord> back;
  EXPECT_FALSE(decode_args(payload, back));
}

TEST(RecordCodec, StacksClocksDropsAndFooterRoundTrip) {
  const std::vector<StackRecord> stacks = {{0, {}}, {1, {5}}, {UINT32_MAX, {UINT32_MAX, 0, 7}}};
  const std::vector<ClockDomainRecord> clocks = {
      {1, "tsc", 2.5e9, {{0, 0}, {UINT64_MAX, UINT64_MAX}}},
      {9, "", std::numeric_limits<double>::infinity(), {}},
  };
  const std::vector<DropRecord> drops = {{0, 1, 0}, {UINT32_MAX, INT32_MIN, UINT64_MAX}};
  const Footer footer{UINT64_MAX, 123, UINT64_MAX, -1, true, 9};

  std::vector<uint8_t> p1, p2, p3, p4;
  encode_stacks(stacks, p1);
  encode_clock_domains(clocks, p2);
  encode_drops(drops, p3);
  encode_footer(footer, p4);
  std::vector<StackRecord> s;
  std::vector<ClockDomainRecord> c;
  std::vector<DropRecord> d;
  Footer f;
  ASSERT_TRUE(decode_stacks(p1, s));
  ASSERT_TRUE(decode_clock_domains(p2, c));
  ASSERT_TRUE(decode_drops(p3, d));
  ASSERT_TRUE(decode_footer(p4, f));
  EXPECT_EQ(s, stacks);
  EXPECT_EQ(c, clocks);
  EXPECT_EQ(d, drops);
  EXPECT_EQ(f, footer);
  expect_prefixes_rejected(p1, [](auto p) {
    std::vector<StackRecord> v;
    return decode_stacks(p, v);
  });
  expect_prefixes_rejected(p2, [](auto p) {
    std::vector<ClockDomainRecord> v;
    return decode_clock_domains(p, v);
  });
  expect_prefixes_rejected(p3, [](auto p) {
    std::vector<DropRecord> v;
    return decode_drops(p, v);
  });
  expect_prefixes_rejected(p4, [](auto p) {
    Footer v;
    return decode_footer(p, v);
  });
}

TEST(RecordCodec, TrailingBytesInAListAreRejected) {
  std::vector<uint8_t> payload;
  const std::vector<DropRecord> drops = {{1, 2, 3}};
  encode_drops(drops, payload);
  payload.push_back(0);
  std::vector<DropRecord> decoded;
  EXPECT_FALSE(decode_drops(payload, decoded));
}

TEST(RecordCodec, AHugeCountDoesNotAllocate) {
  std::vector<uint8_t> payload;
  ByteWriter w(payload);
  w.varint(uint64_t{1} << 60);
  std::vector<StackRecord> decoded;
  EXPECT_FALSE(decode_stacks(payload, decoded));
}

} // namespace
} // namespace prof::report
