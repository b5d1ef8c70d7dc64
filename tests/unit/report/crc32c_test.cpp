#include "core/report/crc32c.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace prof::report {
namespace {

TEST(Crc32c, MatchesTheStandardCheckValue) {
  const char *text = "123456789";
  EXPECT_EQ(crc32c(text, 9), 0xE3069283u);
  EXPECT_EQ(crc32c_extend_portable(0, text, 9), 0xE3069283u);
}

TEST(Crc32c, KnownVectorsFromRfc3720) {
  std::vector<uint8_t> zeros(32, 0);
  std::vector<uint8_t> ones(32, 0xff);
  std::vector<uint8_t> ascending(32);
  for (size_t i = 0; i < 32; ++i)
    ascending[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(crc32c(ones.data(), ones.size()), 0x62A8AB43u);
  EXPECT_EQ(crc32c(ascending.data(), ascending.size()), 0x46DD794Eu);
}

TEST(Crc32c, EmptyInputIsZero) { EXPECT_EQ(crc32c(nullptr, 0), 0u); }

TEST(Crc32c, ExtendingEqualsOneShotAndHardwareEqualsPortable) {
  std::mt19937_64 rng(42);
  std::vector<uint8_t> data(4099);
  for (auto &b : data)
    b = static_cast<uint8_t>(rng());
  for (size_t size : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 65u, 1000u, 4099u}) {
    const uint32_t whole = crc32c(data.data(), size);
    EXPECT_EQ(whole, crc32c_extend_portable(0, data.data(), size)) << size;
    for (size_t split : {size_t{0}, size / 3, size}) {
      const uint32_t first = crc32c(data.data(), split);
      EXPECT_EQ(crc32c_extend(first, data.data() + split, size - split), whole)
          << size << "/" << split;
      // Unaligned starts take the byte-wise tails of both implementations.
      EXPECT_EQ(crc32c_extend_portable(first, data.data() + split, size - split), whole);
    }
  }
}

} // namespace
} // namespace prof::report
