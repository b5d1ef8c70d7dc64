#include "core/catalog/stable_vector.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using prof::core::StableVector;

TEST(StableVector, ElementsKeepTheirAddressesAsItGrows) {
  StableVector<std::string> texts;
  std::vector<const std::string *> addresses;
  for (int i = 0; i < 5000; ++i)
    addresses.push_back(&texts.push_back(std::to_string(i)));
  ASSERT_EQ(texts.size(), 5000u);
  for (size_t i = 0; i < addresses.size(); ++i) {
    EXPECT_EQ(&texts[i], addresses[i]);
    EXPECT_EQ(texts[i], std::to_string(i));
  }
}

TEST(StableVector, DestroysWhatItHolds) {
  auto shared = std::make_shared<int>(7);
  {
    StableVector<std::shared_ptr<int>> held;
    for (int i = 0; i < 100; ++i)
      held.emplace_back(shared);
    EXPECT_EQ(shared.use_count(), 101);
  }
  EXPECT_EQ(shared.use_count(), 1);
}

TEST(StableVector, ReadersIndexWhileOneWriterAppends) {
  StableVector<std::vector<int>> sets;
  std::atomic<size_t> published{0};
  std::atomic<bool> wrong{false};
  std::thread reader([&] {
    while (published.load(std::memory_order_acquire) < 20000)
      for (size_t i = 0, n = published.load(std::memory_order_acquire); i < n; i += 97)
        if (sets[i].size() != 3 || sets[i][0] != static_cast<int>(i)) wrong = true;
  });
  for (int i = 0; i < 20000; ++i) {
    sets.emplace_back(std::vector<int>{i, i + 1, i + 2});
    published.store(sets.size(), std::memory_order_release);
  }
  reader.join();
  EXPECT_FALSE(wrong);
}
