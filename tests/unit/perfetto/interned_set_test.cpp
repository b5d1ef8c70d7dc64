// InternedSet: a paged bitmap of the ids a packet sequence has interned.
#include "interned_set.hpp"

#include <gtest/gtest.h>

namespace prof::perfetto {
namespace {

TEST(InternedSet, InsertsEachIdOnce) {
  InternedSet set;
  EXPECT_FALSE(set.contains(0));
  EXPECT_TRUE(set.insert(0));
  EXPECT_FALSE(set.insert(0));
  EXPECT_TRUE(set.insert(63));
  EXPECT_TRUE(set.insert(64));
  EXPECT_TRUE(set.contains(63));
  EXPECT_TRUE(set.contains(64));
  EXPECT_FALSE(set.contains(65));
  EXPECT_FALSE(set.contains(1'000'000)); // past every page: no allocation
  EXPECT_EQ(set.pages(), 1u);
}

TEST(InternedSet, LargeIdsCostAPageEach) {
  // A track that uses a few late-interned names keeps a few pages, not a
  // bitmap as long as the largest id.
  InternedSet set;
  const uint64_t ids[] = {5, 3'000'000, 3'000'001, 9'999'999, InternedSet::kPageIds * 7};
  for (const uint64_t id : ids)
    EXPECT_TRUE(set.insert(id));
  for (const uint64_t id : ids) {
    EXPECT_FALSE(set.insert(id));
    EXPECT_TRUE(set.contains(id));
  }
  EXPECT_FALSE(set.contains(3'000'002));
  EXPECT_EQ(set.pages(), 4u);
}

} // namespace
} // namespace prof::perfetto
