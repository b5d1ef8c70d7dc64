// The location table decoder on tables written by hand from CPython's
// format (Objects/locations.md), including ones cut short or not tables.
#include <prof/python/line_table.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace prof::python {
namespace {

uint8_t head(int form, int length) { return static_cast<uint8_t>(0x80 | form << 3 | (length - 1)); }

TEST(LineTable, FollowsEachFormOfEntry) {
  const std::vector<uint8_t> table = {
      head(13, 1), 0,          // no column: line delta 0 (svarint 0) -> 10
      head(11, 2), 5, 9,       // one-line form: +1 -> 11, two units
      head(0, 3),  4,          // short form: same line, three units
      head(14, 1), 6, 0, 1, 2, // long form: delta +3 (svarint 6) -> 14
      head(15, 1),             // no location
      head(13, 2), 3,          // no column: delta -1 (svarint 3) -> 13
  };
  EXPECT_EQ(line_of_instruction(table, 10, -1), 10);
  EXPECT_EQ(line_of_instruction(table, 10, 0), 10);
  EXPECT_EQ(line_of_instruction(table, 10, 1), 11);
  EXPECT_EQ(line_of_instruction(table, 10, 2), 11);
  EXPECT_EQ(line_of_instruction(table, 10, 5), 11);
  EXPECT_EQ(line_of_instruction(table, 10, 6), 14);
  EXPECT_EQ(line_of_instruction(table, 10, 7), -1);
  EXPECT_EQ(line_of_instruction(table, 10, 8), 13);
  EXPECT_EQ(line_of_instruction(table, 10, 9), 13);
  EXPECT_EQ(line_of_instruction(table, 10, 10), -1); // past the table
}

TEST(LineTable, LongVarintsAndBrokenTablesEndWithoutReadingPastThem) {
  // delta 200: svarint 400 = 0b110010000 -> groups 010000 (with more), 000110
  const std::vector<uint8_t> long_delta = {head(13, 1), 0x40 | 0x10, 0x06};
  EXPECT_EQ(line_of_instruction(long_delta, 1, 0), 201);
  const std::vector<uint8_t> cut = {head(14, 1), 0x40 | 1};
  EXPECT_EQ(line_of_instruction(cut, 1, 5), -1);
  const std::vector<uint8_t> not_a_table = {0x12, 0x34};
  EXPECT_EQ(line_of_instruction(not_a_table, 1, 0), -1);
  EXPECT_EQ(line_of_instruction({}, 3, 0), -1);
}

} // namespace
} // namespace prof::python
