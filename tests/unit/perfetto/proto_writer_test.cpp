// The wire-format writer: varint edge values, fixed-width fields, and the
// lengths of nested messages (including ones that outgrow their length byte).
#include "proto_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace prof::perfetto {
namespace {

std::vector<uint8_t> bytes(const ProtoWriter &w) { return {w.data(), w.data() + w.size()}; }

std::vector<uint8_t> varint_bytes(uint64_t value) {
  ProtoWriter w(4);
  w.varint(value);
  return bytes(w);
}

/// Reads a varint at `pos`, advancing it.
uint64_t read_varint(const std::vector<uint8_t> &b, size_t &pos) {
  uint64_t value = 0;
  for (int shift = 0; pos < b.size(); shift += 7) {
    const uint8_t byte = b[pos++];
    value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) break;
  }
  return value;
}

TEST(ProtoWriter, VarintEdgeValues) {
  EXPECT_EQ(varint_bytes(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(varint_bytes(1), (std::vector<uint8_t>{0x01}));
  EXPECT_EQ(varint_bytes(127), (std::vector<uint8_t>{0x7f}));
  EXPECT_EQ(varint_bytes(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(varint_bytes(300), (std::vector<uint8_t>{0xac, 0x02}));
  EXPECT_EQ(varint_bytes(16383), (std::vector<uint8_t>{0xff, 0x7f}));
  EXPECT_EQ(varint_bytes(16384), (std::vector<uint8_t>{0x80, 0x80, 0x01}));
  EXPECT_EQ(varint_bytes(0xffffffffu), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 0x0f}));
  EXPECT_EQ(varint_bytes(std::numeric_limits<uint64_t>::max()),
            (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  for (uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 35,
                     uint64_t{1} << 63, std::numeric_limits<uint64_t>::max()}) {
    EXPECT_EQ(varint_bytes(v).size(), varint_size(v)) << v;
    const auto b = varint_bytes(v);
    size_t pos = 0;
    EXPECT_EQ(read_varint(b, pos), v);
    EXPECT_EQ(pos, b.size());
  }
}

TEST(ProtoWriter, NegativeIntsTakeTenBytes) {
  ProtoWriter w;
  w.field_int(1, -1);
  EXPECT_EQ(bytes(w), (std::vector<uint8_t>{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0x01}));
}

TEST(ProtoWriter, TagsCombineFieldAndWireType) {
  ProtoWriter w;
  w.field_varint(8, 5);   // TracePacket.timestamp
  w.field_fixed64(47, 1); // TrackEvent.flow_ids
  w.field_bytes(2, "ab"); // a string
  w.begin_nested(60);     // TracePacket.track_descriptor
  w.end_nested();
  EXPECT_EQ(bytes(w), (std::vector<uint8_t>{0x40, 0x05,                         //
                                            0xf9, 0x02, 1, 0, 0, 0, 0, 0, 0, 0, //
                                            0x12, 0x02, 'a', 'b',               //
                                            0xe2, 0x03, 0x00}));
}

TEST(ProtoWriter, FixedAndDoubleAreLittleEndian) {
  ProtoWriter w;
  w.field_fixed64(1, 0x0102030405060708ull);
  w.field_double(2, 1.5);                                                 // 0x3FF8000000000000
  EXPECT_EQ(bytes(w), (std::vector<uint8_t>{0x09, 8, 7, 6, 5, 4, 3, 2, 1, //
                                            0x11, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}));
}

/// A nested message of `body` payload bytes (one string field) inside field 1.
std::vector<uint8_t> nested_with_payload(size_t payload) {
  ProtoWriter w(16);
  w.begin_nested(1);
  w.raw(std::string(payload, 'x').data(), payload);
  w.end_nested();
  return bytes(w);
}

TEST(ProtoWriter, NestedLengthsAtVarintBoundaries) {
  for (size_t payload : {size_t{0}, size_t{1}, size_t{127}, size_t{128}, size_t{300}, size_t{16383},
                         size_t{16384}, size_t{100000}}) {
    const auto b = nested_with_payload(payload);
    size_t pos = 0;
    EXPECT_EQ(read_varint(b, pos), (1u << 3) | 2u);
    EXPECT_EQ(read_varint(b, pos), payload) << payload;
    EXPECT_EQ(b.size() - pos, payload) << payload;
    EXPECT_EQ(pos, 1 + varint_size(payload)) << "length not minimal for " << payload;
    for (size_t i = pos; i < b.size(); ++i)
      ASSERT_EQ(b[i], 'x');
  }
}

TEST(ProtoWriter, InnerMessageGrowingShiftsOuterLength) {
  // outer{ a: 7, inner{ 200 bytes }, b: 9 }: the inner length takes two
  // bytes, so the outer length must count them.
  ProtoWriter w(8);
  w.begin_nested(1);
  w.field_varint(2, 7);
  w.begin_nested(3);
  w.field_bytes(4, std::string(200, 'y'));
  w.end_nested();
  w.field_varint(5, 9);
  w.end_nested();
  EXPECT_EQ(w.depth(), 0u);

  const auto b = bytes(w);
  size_t pos = 0;
  EXPECT_EQ(read_varint(b, pos), (1u << 3) | 2u);
  const uint64_t outer = read_varint(b, pos);
  EXPECT_EQ(outer, b.size() - pos);
  EXPECT_EQ(read_varint(b, pos), (2u << 3) | 0u);
  EXPECT_EQ(read_varint(b, pos), 7u);
  EXPECT_EQ(read_varint(b, pos), (3u << 3) | 2u);
  const uint64_t inner = read_varint(b, pos);
  EXPECT_EQ(inner, 203u); // tag + 2-byte length + 200
  EXPECT_EQ(read_varint(b, pos), (4u << 3) | 2u);
  EXPECT_EQ(read_varint(b, pos), 200u);
  pos += 200;
  EXPECT_EQ(read_varint(b, pos), (5u << 3) | 0u);
  EXPECT_EQ(read_varint(b, pos), 9u);
  EXPECT_EQ(pos, b.size());
}

TEST(ProtoWriter, ClearKeepsWriting) {
  ProtoWriter w(2);
  for (int i = 0; i < 1000; ++i)
    w.field_varint(1, static_cast<uint64_t>(i));
  EXPECT_GT(w.size(), 1000u);
  w.clear();
  EXPECT_EQ(w.size(), 0u);
  w.field_varint(1, 1);
  EXPECT_EQ(bytes(w), (std::vector<uint8_t>{0x08, 0x01}));
}

} // namespace
} // namespace prof::perfetto
