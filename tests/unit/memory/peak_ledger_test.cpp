// The heap's ledger: what each call site and sampled stack held at the peak,
// exact however briefly the peak lasted and whatever came after it, and, with
// threads allocating at once, rows at the peak that add up to the peak.
#include "heap_table.hpp"
#include "peak_ledger.hpp"
#include "stack_sampler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

namespace prof::memory {
namespace {

std::atomic<uint64_t> g_clock{0};
uint64_t fake_now() { return ++g_clock; }

struct Rows {
  std::map<uintptr_t, LedgerValue> now, peak;
};
Rows sites(const PeakLedger &ledger) {
  Rows rows;
  ledger.for_each_site([&](uintptr_t key, const LedgerValue &now, const LedgerValue &peak) {
    rows.now[key] += now;
    rows.peak[key] += peak;
  });
  return rows;
}

TEST(PeakLedger, ThePeaksRowsAreThoseOfItsMomentNotOfLaterOnes) {
  PeakLedger ledger;
  ledger.add(1000, 0xA, 0, &fake_now); // A: 1000
  ledger.add(5000, 0xB, 0, &fake_now); // the peak: 6000
  const uint64_t peak_at = g_clock;
  ledger.remove(5000, 0xB, 0);     // B gone
  for (int i = 0; i < 1000; ++i) { // churn at C, never reaching 6000
    ledger.add(4000, 0xC, 0, &fake_now);
    ledger.remove(4000, 0xC, 0);
  }
  ledger.add(3000, 0xA, 0, &fake_now); // A grows to 4000: still under the peak
  EXPECT_EQ(ledger.peak(), 6000u);
  EXPECT_EQ(ledger.peak_ns(), peak_at);
  EXPECT_EQ(ledger.in_use(), 4000);
  Rows rows = sites(ledger);
  EXPECT_EQ(rows.peak[0xA].bytes, 1000);
  EXPECT_EQ(rows.peak[0xB].bytes, 5000);
  EXPECT_EQ(rows.peak[0xB].blocks, 1);
  EXPECT_EQ(rows.peak[0xC].bytes, 0) << "C held nothing at the peak";
  EXPECT_EQ(rows.now[0xA].bytes, 4000);
  EXPECT_EQ(rows.now[0xA].blocks, 2);

  ledger.add(2500, 0xC, 0, &fake_now); // 6500: a new peak, made of A and C
  rows = sites(ledger);
  EXPECT_EQ(ledger.peak(), 6500u);
  EXPECT_EQ(rows.peak[0xA].bytes, 4000);
  EXPECT_EQ(rows.peak[0xB].bytes, 0);
  EXPECT_EQ(rows.peak[0xC].bytes, 2500);
}

// prof's own blocks keep their row (what they hold now, for the report's
// "prof's own" line) and never move the heap's level or its peak.
TEST(PeakLedger, ProfsOwnBlocksStayOutOfTheLevelAndThePeak) {
  PeakLedger ledger;
  ledger.add(1000, 0xA, 0, &fake_now);
  ledger.add(50'000, kProfSite, 0, &fake_now);
  ledger.add(2000, 0xB, 0, &fake_now); // the peak: 3000, not 53000
  ledger.remove(2000, 0xB, 0);
  ledger.remove(50'000, kProfSite, 0);
  ledger.add(30'000, kProfSite, 0, &fake_now);
  EXPECT_EQ(ledger.peak(), 3000u);
  EXPECT_EQ(ledger.in_use(), 1000);
  Rows rows = sites(ledger);
  EXPECT_EQ(rows.now[kProfSite].bytes, 30'000);
  EXPECT_EQ(rows.now[kProfSite].blocks, 1);
  EXPECT_EQ(rows.peak[0xA].bytes + rows.peak[0xB].bytes, 3000);
}

TEST(PeakLedger, SampledStacksAtThePeakCarryTheirWeight) {
  PeakLedger ledger;
  ledger.set_stack_period(1024);
  ledger.add(100, 0xA, 7, &fake_now);
  ledger.add(100, 0xA, 0, &fake_now);
  ledger.remove(100, 0xA, 7);
  ledger.add(150, 0xA, 8, &fake_now); // 250: the peak
  std::map<uintptr_t, LedgerValue> peak;
  ledger.for_each_stack(
      [&](uintptr_t key, const LedgerValue &, const LedgerValue &at) { peak[key] += at; });
  EXPECT_EQ(peak[7].blocks, 0) << "stack 7 was freed before the peak";
  EXPECT_EQ(peak[8].blocks, 1);
  EXPECT_DOUBLE_EQ(peak[8].weight, sampled_weight(150, 1024));
  EXPECT_DOUBLE_EQ(peak[8].variance, sampled_variance(150, 1024));
}

// Threads on lanes of their own (the plugin's case) and, before, on the one
// lane they share under a lock.
class PeakLedgerThreads : public ::testing::TestWithParam<bool> {};

TEST_P(PeakLedgerThreads, RowsAtThePeakAddUpToItWithThreadsAllocatingAtOnce) {
  if (GetParam()) PeakLedger::use_thread_lanes();
  static HeapTable tables[2]; // large: not on the stack
  HeapTable &table = tables[GetParam() ? 1 : 0];
  constexpr int kThreads = 4, kBlocks = 20000;
  // Every thread allocates at the same eight sites, frees two blocks in
  // three at once, and leaves the rest to the next thread, as a queue does.
  std::vector<std::vector<uintptr_t>> left(kThreads);
  const auto run = [&](auto work) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back(work, t);
    for (std::thread &t : threads)
      t.join();
  };
  run([&](int t) {
    const uintptr_t base = 0x10000000ull * static_cast<uintptr_t>(t + 1);
    for (int i = 0; i < kBlocks; ++i) {
      const uintptr_t address = base + 64 * static_cast<uintptr_t>(i);
      table.add(
          {address, static_cast<uint64_t>(16 + i % 200), 0x100 + static_cast<uintptr_t>(i % 8)},
          &fake_now);
      if (i % 3 == 0)
        left[static_cast<size_t>(t)].push_back(address);
      else
        table.remove(address, nullptr);
    }
  });
  run([&](int t) {
    for (uintptr_t address : left[static_cast<size_t>((t + 1) % kThreads)])
      table.remove(address, nullptr);
  });
  int64_t sum = 0, now = 0;
  table.ledger().for_each_site([&](uintptr_t, const LedgerValue &live, const LedgerValue &peak) {
    sum += peak.bytes;
    now += live.bytes;
  });
  EXPECT_GT(table.totals().peak, 0u);
  EXPECT_EQ(static_cast<uint64_t>(sum), table.totals().peak);
  EXPECT_EQ(now, 0) << "every block was freed";
  EXPECT_EQ(table.totals().in_use, 0);
}

// Shared first: once lanes are in use, they stay.
INSTANTIATE_TEST_SUITE_P(Lanes, PeakLedgerThreads, ::testing::Values(false, true),
                         [](const auto &info) { return info.param ? "OwnLanes" : "SharedLane"; });

} // namespace
} // namespace prof::memory
