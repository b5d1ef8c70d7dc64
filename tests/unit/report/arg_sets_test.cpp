// The reader's compact argument sets: found by id whether ids are dense,
// sparse or added out of order, a later set of an id replacing the earlier.
#include "core/report/arg_sets.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace prof::report {
namespace {

std::vector<prof_arg> args_of(uint32_t key, uint64_t value, size_t count) {
  std::vector<prof_arg> out;
  for (size_t i = 0; i < count; ++i)
    out.push_back(prof_arg{key + static_cast<uint32_t>(i), PROF_ARG_UINT, {.u = value + i}});
  return out;
}

uint64_t first_value(const ArgSets &sets, uint32_t id) {
  const auto set = sets.find(id);
  return set && !set->empty() ? set->front().value.u : 0;
}

TEST(ArgSets, DenseIdsAreFoundAndIteratedInOrder) {
  ArgSets sets;
  for (uint32_t id = 1; id <= 1000; ++id)
    sets.add(id, args_of(7, id * 10, id % 4));
  sets.seal();
  EXPECT_EQ(sets.size(), 1000u);
  EXPECT_EQ(sets.last_id(), 1000u);
  EXPECT_FALSE(sets.find(0));
  EXPECT_FALSE(sets.find(1001));
  ASSERT_TRUE(sets.find(4));
  EXPECT_TRUE(sets.find(4)->empty()) << "a set without arguments is still a set";
  EXPECT_EQ(sets.find(999)->size(), 3u);
  EXPECT_EQ(first_value(sets, 999), 9990u);
  EXPECT_EQ((*sets.find(999))[2].key, 9u);
  uint32_t expected = 1;
  for (const auto &[id, set] : sets) {
    EXPECT_EQ(id, expected);
    EXPECT_EQ(set.size(), expected % 4);
    ++expected;
  }
  EXPECT_EQ(expected, 1001u);
}

TEST(ArgSets, SparseAndOutOfOrderIdsAndReplacedSets) {
  ArgSets sets;
  sets.add(50, args_of(1, 500, 1));
  sets.add(7, args_of(1, 70, 2));
  sets.add(300000, args_of(1, 3, 1));
  sets.add(50, args_of(1, 501, 2)); // replaces the first 50
  sets.add(8, args_of(1, 80, 1));
  sets.seal();
  EXPECT_EQ(sets.size(), 4u);
  EXPECT_EQ(first_value(sets, 7), 70u);
  EXPECT_EQ(first_value(sets, 8), 80u);
  EXPECT_EQ(first_value(sets, 50), 501u);
  EXPECT_EQ(sets.find(50)->size(), 2u);
  EXPECT_EQ(first_value(sets, 300000), 3u);
  EXPECT_FALSE(sets.find(9));
  EXPECT_FALSE(sets.find(51));
  EXPECT_EQ(sets.last_id(), 300000u);
  std::vector<uint32_t> ids;
  for (const auto &[id, set] : sets)
    ids.push_back(id);
  EXPECT_EQ(ids, (std::vector<uint32_t>{7, 8, 50, 300000}));
  sets.clear();
  EXPECT_TRUE(sets.empty());
  EXPECT_FALSE(sets.find(7));
  EXPECT_EQ(sets.last_id(), 0u);
}

} // namespace
} // namespace prof::report
