// How tables name a process: paths cut to their last part, a merge label
// that does not say the rank the name already ends with.
#include <prof/stats/process_label.hpp>

#include <gtest/gtest.h>

namespace prof::stats {
namespace {

TEST(ShortProcessName, PathsKeepTheirLastPart) {
  EXPECT_EQ(short_process_name("/usr/bin/python3 /job/train.py --out=/tmp/o.txt -n 4"),
            "python3 train.py --out=o.txt -n 4");
  EXPECT_EQ(short_process_name("./app a/ / --x=y"), "app a/ / --x=y");
  EXPECT_EQ(short_process_name(""), "");
}

TEST(ShortProcessName, AMergeLabelDoesNotRepeatTheRank) {
  EXPECT_EQ(short_process_name("/bin/train (rank 1) [node0 rank 1]"), "train (rank 1) [node0]");
  EXPECT_EQ(short_process_name("train (rank 2) [rank 2]"), "train (rank 2)");
  // Another rank, or a name without one, keeps the whole label.
  EXPECT_EQ(short_process_name("train (rank 2) [node0 rank 3]"), "train (rank 2) [node0 rank 3]");
  EXPECT_EQ(short_process_name("train [node0 rank 12]"), "train [node0 rank 12]");
  EXPECT_EQ(short_process_name("train (rank 1) [node0 rank 11]"), "train (rank 1) [node0 rank 11]");
}

TEST(MergeLabel, IsTheBracketedEnd) {
  EXPECT_EQ(merge_label("app [node1 rank 3]"), " [node1 rank 3]");
  EXPECT_EQ(merge_label("app"), "");
  EXPECT_EQ(merge_label("app]"), "");
}

} // namespace
} // namespace prof::stats
