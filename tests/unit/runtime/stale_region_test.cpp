// Regions a killed prof left in /dev/shm are removed by the next prof; those
// of a prof still running are not.
#include "core/runtime/shm_region.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::core {
namespace {

bool exists(const std::string &name) {
  const int fd = shm_open(name.c_str(), O_RDONLY, 0);
  if (fd < 0) return false;
  close(fd);
  return true;
}

void create(const std::string &name) {
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0) << name;
  close(fd);
}

TEST(StaleRegions, ThoseOfDeadProfsAreRemovedOthersKept) {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0); // a pid that no longer runs
  const std::string dead = "/prof-" + std::to_string(child) + "-deadbeef0";
  const std::string alive = new_shm_name();
  const std::string other = "/not-prof-" + std::to_string(child);
  create(dead);
  create(alive);
  create(other);
  EXPECT_GE(remove_stale_regions(), 1);
  EXPECT_FALSE(exists(dead));
  EXPECT_TRUE(exists(alive));
  EXPECT_TRUE(exists(other));
  shm_unlink(alive.c_str());
  shm_unlink(other.c_str());
}

TEST(StaleRegions, NamesDifferEvenForTheSamePid) {
  EXPECT_NE(new_shm_name(), new_shm_name());
  EXPECT_EQ(new_shm_name().rfind("/prof-" + std::to_string(getpid()) + "-", 0), 0u);
}

} // namespace
} // namespace prof::core
