// prof::ThreadSlots: a thread claims a slot on first use (its claimed()
// hook runs), gives it back when it exits (released() runs, so what the
// slot said of the thread is not read again), and finds none once the table
// is full; in a forked child only the calling thread keeps its slot.
#include <prof/thread_slots.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace {

struct Slot {
  std::atomic<uint32_t> owned{0};
  std::atomic<int> value{0};
  std::atomic<int> claims{0};
  void claimed() noexcept { claims.fetch_add(1); }
  void released() noexcept { value.store(0); }
};

using Table = prof::ThreadSlots<Slot, 2>;

size_t owned() {
  size_t n = 0;
  for (const Slot &slot : Table::all())
    n += slot.owned.load() != 0;
  return n;
}

TEST(ThreadSlots, ClaimedOnFirstUseReleasedAtExitAndNoneWhenFull) {
  EXPECT_EQ(Table::own(), nullptr) << "prepare() first";
  Table::prepare();
  Slot *mine = Table::own();
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ(Table::own(), mine) << "once per thread";
  EXPECT_EQ(mine->claims.load(), 1);

  std::thread([] {
    Slot *slot = Table::own();
    ASSERT_NE(slot, nullptr);
    slot->value.store(7);
    EXPECT_EQ(owned(), 2u);
    std::thread([] { EXPECT_EQ(Table::own(), nullptr) << "both slots taken"; }).join();
  }).join();
  EXPECT_EQ(owned(), 1u) << "the exited thread gave its slot back";
  for (const Slot &slot : Table::all())
    EXPECT_EQ(slot.value.load(), 0) << "released() ran as it did";

  // A forked child: the other thread's slot is given back, the caller's kept.
  std::atomic<bool> stop{false};
  std::thread other([&] {
    Table::own()->value.store(5);
    while (!stop.load())
      std::this_thread::yield();
  });
  while (owned() != 2)
    std::this_thread::yield();
  const pid_t child = fork();
  if (child == 0) {
    Table::keep_only_calling_thread();
    int ok = owned() == 1 && Table::own() == mine;
    for (const Slot &slot : Table::all())
      ok &= slot.value.load() == 0;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  stop.store(true);
  other.join();
}

} // namespace
