// The wire reader: every wire type, nested offsets, packed fields, and each
// way data is cut or malformed, with the byte offset the error names.
#include "proto_writer.hpp"
#include "read/proto_reader.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace prof::perfetto {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (const int v : values)
    out.push_back(static_cast<char>(v));
  return out;
}

/// The message of the WireError that reading all of `data` throws ("" when none).
std::string error_of(std::string_view data, uint64_t base = 0) {
  try {
    ProtoReader reader(data, base);
    WireField field;
    while (reader.next(field)) {
    }
  } catch (const WireError &e) {
    return e.what();
  }
  return "";
}

TEST(ProtoReader, ReadsEveryWireType) {
  ProtoWriter out;
  out.field_varint(1, 150);
  out.field_varint(2, ~uint64_t{0}); // ten bytes
  out.field_int(3, -2);
  out.field_fixed64(4, 0x0102030405060708);
  out.field_double(5, 2.5);
  out.field_bytes(6, "text");
  out.tag(7, WireType::Fixed32);
  out.raw("\x78\x56\x34\x12", 4);
  ProtoReader reader(out.view(), 100);
  WireField f;
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(f.type, WireType::Varint);
  EXPECT_EQ(f.value, 150u);
  EXPECT_EQ(f.offset, 100u);
  EXPECT_EQ(f.payload_offset, 101u);
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.value, ~uint64_t{0});
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.as_int64(), -2);
  EXPECT_EQ(f.as_int32(), -2);
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.type, WireType::Fixed64);
  EXPECT_EQ(f.value, 0x0102030405060708u);
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.as_double(), 2.5);
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.type, WireType::LengthDelimited);
  EXPECT_EQ(f.bytes, "text");
  ASSERT_TRUE(reader.next(f));
  EXPECT_EQ(f.type, WireType::Fixed32);
  EXPECT_EQ(f.value, 0x12345678u);
  EXPECT_FALSE(reader.next(f));
  EXPECT_TRUE(reader.at_end());
}

TEST(ProtoReader, NestedReadersKnowTheirFileOffsets) {
  ProtoWriter out;
  out.field_varint(1, 1);
  out.begin_nested(2);
  out.field_bytes(3, "abc");
  out.begin_nested(4);
  out.field_varint(5, 9);
  out.end_nested();
  out.end_nested();
  ProtoReader reader(out.view(), 1000);
  WireField outer, inner, innermost;
  ASSERT_TRUE(reader.next(outer));
  ASSERT_TRUE(reader.next(outer));
  EXPECT_EQ(outer.offset, 1002u);
  EXPECT_EQ(outer.payload_offset, 1004u);
  ProtoReader nested = ProtoReader::nested(outer);
  ASSERT_TRUE(nested.next(inner));
  EXPECT_EQ(inner.offset, 1004u);
  ASSERT_TRUE(nested.next(inner));
  EXPECT_EQ(inner.number, 4u);
  ProtoReader deepest = message_of(inner, "Inner.four");
  ASSERT_TRUE(deepest.next(innermost));
  EXPECT_EQ(innermost.value, 9u);
  EXPECT_EQ(innermost.offset, 1011u);
}

TEST(ProtoReader, UnknownFieldsAreSteppedOver) {
  ProtoWriter out;
  out.field_bytes(900, std::string(300, 'x')); // a field this reader knows nothing of
  out.field_fixed64(901, 7);
  out.field_varint(1, 42);
  ProtoReader reader(out.view());
  WireField f;
  std::vector<uint32_t> numbers;
  while (reader.next(f))
    numbers.push_back(f.number);
  EXPECT_EQ(numbers, (std::vector<uint32_t>{900, 901, 1}));
  EXPECT_EQ(f.value, 42u);
}

TEST(ProtoReader, PackedAndUnpackedRepeatedFields) {
  ProtoWriter out;
  out.field_varint(1, 5);
  out.field_bytes(1, bytes({1, 0x96, 0x01, 3})); // packed: 1, 150, 3
  std::string fixed;
  for (const uint64_t v : {uint64_t{9}, uint64_t{1} << 60})
    for (int i = 0; i < 8; ++i)
      fixed.push_back(static_cast<char>(v >> (8 * i)));
  out.field_bytes(2, fixed);
  out.field_fixed64(2, 11);
  ProtoReader reader(out.view());
  std::vector<uint64_t> varints, fixeds;
  WireField f;
  while (reader.next(f)) {
    if (f.number == 1)
      for_each_varint(f, "Test.varints", [&](uint64_t v) { varints.push_back(v); });
    else
      for_each_fixed64(f, "Test.fixeds", [&](uint64_t v) { fixeds.push_back(v); });
  }
  EXPECT_EQ(varints, (std::vector<uint64_t>{5, 1, 150, 3}));
  EXPECT_EQ(fixeds, (std::vector<uint64_t>{9, uint64_t{1} << 60, 11}));
}

TEST(ProtoReader, CutPackedValuesNameTheirOffset) {
  ProtoWriter out;
  out.field_bytes(1, bytes({1, 0x96})); // the second value is cut
  ProtoReader reader(out.view(), 50);
  WireField f;
  ASSERT_TRUE(reader.next(f));
  try {
    for_each_varint(f, "Callstack.frame_ids", [](uint64_t) {});
    FAIL() << "no error";
  } catch (const WireError &e) {
    EXPECT_STREQ(e.what(), "expected packed values of Callstack.frame_ids (field 1), found a cut "
                           "value at offset 53");
    EXPECT_EQ(e.offset(), 53u);
  }
  ProtoWriter odd;
  odd.field_bytes(2, "12345678abc"); // 11 bytes: not whole fixed64s
  ProtoReader fixed(odd.view());
  ASSERT_TRUE(fixed.next(f));
  EXPECT_THROW(for_each_fixed64(f, "TrackEvent.flow_ids", [](uint64_t) {}), WireError);
}

TEST(ProtoReader, TruncationsNameWhatWasExpectedWhere) {
  // A tag whose varint never ends.
  EXPECT_EQ(error_of(bytes({0x88}), 10),
            "expected a field tag (a varint), found the end of the data at offset 10");
  // A varint value cut.
  EXPECT_EQ(error_of(bytes({0x08, 0x96}), 10),
            "expected a varint value of a field, found the end of the data at offset 11");
  // A fixed64 with 3 of its 8 bytes.
  EXPECT_EQ(error_of(bytes({0x11, 1, 2, 3})),
            "expected 8 bytes of field 2, found 3 before the end of the data at offset 1");
  // A fixed32 with 1 of its 4.
  EXPECT_EQ(error_of(bytes({0x08, 1, 0x1d, 9})),
            "expected 4 bytes of field 3, found 1 before the end of the data at offset 3");
  // A string of 5 bytes with 2 there.
  EXPECT_EQ(error_of(bytes({0x0a, 5, 'a', 'b'}), 7),
            "expected 5 bytes of field 1, found 2 before the end of the data at offset 9");
  // Its length cut.
  EXPECT_EQ(error_of(bytes({0x0a, 0x80})),
            "expected the length of a field (a varint), found the end of the data at offset 1");
}

TEST(ProtoReader, MalformedFieldsAreRefused) {
  // Eleven bytes of varint: more than 64 bits.
  EXPECT_EQ(error_of(bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02})),
            "expected a varint value of a field, found more than 64 bits at offset 1");
  EXPECT_EQ(error_of(bytes({0x08, 1, 0x0b})),
            "expected a field of wire type 0, 1, 2 or 5, found a group (wire type 3) in field 1 "
            "at offset 2");
  EXPECT_EQ(error_of(bytes({0x0c})),
            "expected a field of wire type 0, 1, 2 or 5, found a group (wire type 4) in field 1 "
            "at offset 0");
  EXPECT_EQ(error_of(bytes({0x0e})),
            "expected a field of wire type 0, 1, 2 or 5, found wire type 6 in field 1 at offset 0");
  EXPECT_EQ(error_of(bytes({0x0f})),
            "expected a field of wire type 0, 1, 2 or 5, found wire type 7 in field 1 at offset 0");
  EXPECT_EQ(error_of(bytes({0x02, 0})), "expected a field tag, found field number 0 at offset 0");
}

TEST(ProtoReader, AFieldOfTheWrongTypeNamesTheSchema) {
  ProtoWriter out;
  out.field_varint(23, 5); // TrackEvent.name is a string
  ProtoReader reader(out.view(), 40);
  WireField f;
  ASSERT_TRUE(reader.next(f));
  try {
    text_of(f, "TrackEvent.name");
    FAIL() << "no error";
  } catch (const WireError &e) {
    EXPECT_STREQ(e.what(), "expected TrackEvent.name (field 23) to be length-delimited, found a "
                           "varint at offset 40");
  }
  EXPECT_EQ(varint_of(f, "TrackEvent.name_iid"), 5u);
  EXPECT_THROW(message_of(f, "TracePacket.track_event"), WireError);
}

TEST(ProtoReader, ReadVarintWithoutExceptions) {
  const std::string data = bytes({0xac, 0x02, 0x80});
  size_t pos = 0;
  uint64_t value = 0;
  ASSERT_TRUE(read_varint(data, pos, value));
  EXPECT_EQ(value, 300u);
  EXPECT_EQ(pos, 2u);
  EXPECT_FALSE(read_varint(data, pos, value)); // cut
}

} // namespace
} // namespace prof::perfetto
