#include "core/report/byte_planes.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace prof::report {
namespace {

std::vector<uint8_t> planes_of(const std::vector<uint64_t> &values) {
  std::vector<uint8_t> out(byte_planes_room(values.size()));
  out.resize(write_byte_planes(values, out.data()));
  return out;
}

std::vector<uint64_t> read_back(const std::vector<uint8_t> &column, size_t count) {
  BytePlaneReader reader;
  EXPECT_TRUE(reader.open(column));
  std::vector<uint64_t> values;
  for (size_t i = 0; i < count; ++i)
    values.push_back(reader.next());
  EXPECT_TRUE(reader.ok());
  EXPECT_TRUE(reader.at_end());
  return values;
}

TEST(BytePlanes, PlaneBHoldsByteBOfEveryValue) {
  EXPECT_EQ(planes_of({0x0102, 0x0304, 0x05}),
            (std::vector<uint8_t>{2, 0x02, 0x04, 0x05, 0x01, 0x03, 0x00}));
  EXPECT_EQ(planes_of({0, 0, 0}), (std::vector<uint8_t>{0}));
  EXPECT_EQ(planes_of({}), (std::vector<uint8_t>{0}));
}

TEST(BytePlanes, EveryWidthRoundTrips) {
  for (unsigned width = 0; width <= 8; ++width) {
    std::vector<uint64_t> values;
    for (uint64_t i = 0; i < 21; ++i) // not a multiple of 8
      values.push_back(width == 0 ? 0 : (i * 0x9E3779B97F4A7C15ull) >> (64 - 8 * width));
    const auto column = planes_of(values);
    EXPECT_LE(column[0], width);
    EXPECT_EQ(read_back(column, values.size()), values) << "width " << width;
  }
}

TEST(BytePlanes, MalformedColumnsAreRejected) {
  BytePlaneReader reader;
  EXPECT_FALSE(reader.open({}));
  const std::vector<uint8_t> too_wide = {9, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_FALSE(reader.open(too_wide));
  const std::vector<uint8_t> part_of_a_plane = {2, 1, 2, 3};
  EXPECT_FALSE(reader.open(part_of_a_plane));
  const std::vector<uint8_t> zero_width_with_bytes = {0, 1};
  EXPECT_FALSE(reader.open(zero_width_with_bytes));
}

TEST(BytePlanes, ReadingPastTheLastValueFails) {
  const auto column = planes_of({7});
  BytePlaneReader reader;
  ASSERT_TRUE(reader.open(column));
  EXPECT_EQ(reader.next(), 7u);
  EXPECT_TRUE(reader.at_end());
  EXPECT_EQ(reader.next(), 0u);
  EXPECT_FALSE(reader.ok());
}

TEST(BytePlanes, AReaderOpenedAgainReadsOnlyItsNewColumn) {
  BytePlaneReader reader; // the decoder keeps one per thread
  const auto wide = planes_of({0x0102030405060708, 2, 3, 4, 5});
  ASSERT_TRUE(reader.open(wide));
  EXPECT_EQ(reader.next(), 0x0102030405060708u);
  const auto zeros = planes_of({0, 0});
  ASSERT_TRUE(reader.open(zeros)); // width 0: every value 0, the count not stored
  EXPECT_EQ(reader.next(), 0u);
  EXPECT_EQ(reader.next(), 0u);
  EXPECT_TRUE(reader.ok());
  EXPECT_TRUE(reader.at_end());
  const auto two = planes_of({0x300, 0x4});
  ASSERT_TRUE(reader.open(two));
  EXPECT_EQ(reader.next(), 0x300u);
  EXPECT_FALSE(reader.at_end());
  EXPECT_EQ(reader.next(), 0x4u);
  EXPECT_TRUE(reader.at_end());
  EXPECT_EQ(reader.next(), 0u);
  EXPECT_FALSE(reader.ok());
  const std::vector<uint8_t> part_of_a_plane = {2, 1, 2, 3};
  EXPECT_FALSE(reader.open(part_of_a_plane));
  EXPECT_TRUE(reader.at_end()); // nothing left of the column before
}

} // namespace
} // namespace prof::report
