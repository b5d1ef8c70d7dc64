// A collective's sequence is its thread's count of collectives on the
// communicator: per handle, per thread, restarted when the handle is freed.
#include "collective_counts.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace prof::mpi {
namespace {

// Handles are only compared: any distinct values stand for communicators.
MPI_Comm handle(uintptr_t n) { return reinterpret_cast<MPI_Comm>(n); }

TEST(CollectiveCounts, EachCommunicatorCountsOnItsOwnPerThread) {
  EXPECT_EQ(count_collective(handle(0x10)), 1u);
  EXPECT_EQ(count_collective(handle(0x10)), 2u);
  EXPECT_EQ(count_collective(handle(0x20)), 1u);
  EXPECT_EQ(count_collective(handle(0x10)), 3u);
  std::thread([] { EXPECT_EQ(count_collective(handle(0x10)), 1u); }).join();
  forget_collectives(handle(0x10)); // freed: the handle may name another one next
  EXPECT_EQ(count_collective(handle(0x10)), 1u);
  EXPECT_EQ(count_collective(handle(0x20)), 2u);
}

TEST(CollectiveCounts, PastTheTableTheOldestCommunicatorStartsAgain) {
  std::thread([] {
    for (uintptr_t n = 1; n <= 32; ++n)
      EXPECT_EQ(count_collective(handle(n * 8)), 1u);
    EXPECT_EQ(count_collective(handle(8)), 2u);
    EXPECT_EQ(count_collective(handle(33 * 8)), 1u); // takes the oldest slot
    EXPECT_EQ(count_collective(handle(8)), 1u);
  }).join();
}

} // namespace
} // namespace prof::mpi
