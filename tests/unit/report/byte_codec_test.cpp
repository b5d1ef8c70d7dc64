#include <prof/byte_codec.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace prof::report {
namespace {

TEST(ByteCodec, VarintsAndZigzagRoundTripAtTheEdges) {
  const uint64_t unsigned_values[] = {
      0, 1, 127, 128, 16383, 16384, UINT32_MAX, uint64_t{UINT32_MAX} + 1, UINT64_MAX};
  const int64_t signed_values[] = {0, -1, 1, -64, 64, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};
  std::vector<uint8_t> bytes;
  ByteWriter w(bytes);
  for (auto v : unsigned_values)
    w.varint(v);
  for (auto v : signed_values)
    w.svarint(v);
  w.string("tab\there");
  w.string("");
  w.f64(-0.0);
  ByteReader r(bytes);
  for (auto v : unsigned_values)
    EXPECT_EQ(r.varint(), v);
  for (auto v : signed_values)
    EXPECT_EQ(r.svarint(), v);
  EXPECT_EQ(r.string(), "tab\there");
  EXPECT_EQ(r.string(), "");
  EXPECT_TRUE(std::signbit(r.f64()));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(ByteCodec, VarintUsesAtMostTenBytes) {
  uint8_t buffer[kMaxVarintBytes];
  EXPECT_EQ(put_varint(buffer, UINT64_MAX) - buffer, 10);
  EXPECT_EQ(put_varint(buffer, 0) - buffer, 1);
}

TEST(ByteCodec, ReadingPastTheEndFailsInsteadOfReadingOn) {
  const std::vector<uint8_t> truncated_varint = {0x80, 0x80};
  ByteReader a(truncated_varint);
  EXPECT_EQ(a.varint(), 0u);
  EXPECT_FALSE(a.ok());

  const std::vector<uint8_t> overlong(11, 0x80);
  ByteReader b(overlong);
  b.varint();
  EXPECT_FALSE(b.ok());

  const std::vector<uint8_t> too_wide = {0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0x02};
  ByteReader c(too_wide);
  c.varint();
  EXPECT_FALSE(c.ok());

  const std::vector<uint8_t> short_u32 = {1, 2, 3};
  ByteReader d(short_u32);
  EXPECT_EQ(d.u32(), 0u);
  EXPECT_FALSE(d.ok());
}

TEST(ByteCodec, CountsAndStringsLongerThanThePayloadFail) {
  std::vector<uint8_t> bytes;
  ByteWriter w(bytes);
  w.varint(1000); // claims 1000 bytes of text, has 2
  w.u8('a');
  w.u8('b');
  ByteReader r(bytes);
  EXPECT_EQ(r.string(), "");
  EXPECT_FALSE(r.ok());
}

TEST(ByteCodec, NarrowReadsRejectWideValues) {
  std::vector<uint8_t> bytes;
  ByteWriter w(bytes);
  w.varint(uint64_t{UINT32_MAX} + 1);
  w.svarint(int64_t{INT32_MAX} + 1);
  ByteReader r(bytes);
  r.varint32();
  EXPECT_FALSE(r.ok());
  ByteReader s(std::span<const uint8_t>(bytes).subspan(5));
  s.svarint32();
  EXPECT_FALSE(s.ok());
}

} // namespace
} // namespace prof::report
