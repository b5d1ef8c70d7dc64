// BatchOrder against a plain comparison sort of the same packets: random
// batches full of equal timestamps, already ordered batches, slices longer
// than a second, and batches spanning more time than a packed key holds.
#include "batch_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace prof::perfetto {
namespace {

struct Packet {
  uint32_t event;
  bool end;
  bool operator==(const Packet &) const = default;
};

std::ostream &operator<<(std::ostream &os, const Packet &p) {
  return os << (p.end ? "end of " : "") << p.event;
}

/// The order batch_order.hpp describes, by comparison.
std::vector<Packet> reference_order(const std::vector<prof_event> &events) {
  std::vector<Packet> packets;
  for (uint32_t i = 0; i < events.size(); ++i) {
    packets.push_back({i, false});
    if (events[i].type == PROF_EVENT_SLICE && events[i].duration > 0) packets.push_back({i, true});
  }
  const auto key = [&](const Packet &p) {
    const prof_event &e = events[p.event];
    const bool pair = e.type == PROF_EVENT_SLICE && e.duration > 0;
    const uint64_t ts = p.end ? e.ts + e.duration : e.ts;
    const int rank = p.end ? 0 : pair ? 1 : 2;
    // ENDs: shorter first, later first; BEGINs: longer first, earlier first.
    const uint64_t duration = rank == 0 ? e.duration : rank == 1 ? ~e.duration : 0;
    const int64_t index = rank == 0 ? -int64_t{p.event} : int64_t{p.event};
    return std::make_tuple(ts, rank, duration, index);
  };
  std::sort(packets.begin(), packets.end(),
            [&](const Packet &a, const Packet &b) { return key(a) < key(b); });
  return packets;
}

std::vector<Packet> batch_order(BatchOrder &order, const std::vector<prof_event> &events) {
  std::vector<Packet> packets;
  for (const uint64_t key : order.order(events.data(), events.size()))
    packets.push_back({order.event(key), BatchOrder::end(key)});
  return packets;
}

prof_event event(prof_event_type type, uint64_t ts, uint64_t duration) {
  prof_event e{};
  e.type = type;
  e.track = 1;
  e.ts = ts;
  e.duration = duration;
  return e;
}

TEST(BatchOrder, MatchesAComparisonSort) {
  std::mt19937_64 random(7);
  BatchOrder order;
  for (int round = 0; round < 200; ++round) {
    // Few distinct times and durations, so that ties abound.
    const uint64_t base = random() % 2 == 0 ? 0 : uint64_t{1} << 40;
    const uint64_t spreads[] = {8, 1000, uint64_t{1} << 34, uint64_t{1} << 50};
    const uint64_t spread = spreads[round % 4];
    const uint64_t durations[] = {0, 1, 2, 5, 10, uint64_t{3} << 30, uint64_t{3} << 30};
    std::vector<prof_event> events(1 + random() % 3000);
    for (prof_event &e : events) {
      const prof_event_type types[] = {PROF_EVENT_SLICE, PROF_EVENT_SLICE, PROF_EVENT_SLICE,
                                       PROF_EVENT_INSTANT, PROF_EVENT_COUNTER};
      e = event(types[random() % 5], base + random() % spread, durations[random() % 7]);
      if (e.type != PROF_EVENT_SLICE) e.duration = 0;
    }
    ASSERT_EQ(batch_order(order, events), reference_order(events)) << "round " << round;
  }
}

TEST(BatchOrder, OrderedBatchesStayAsTheyAre) {
  std::vector<prof_event> events;
  for (uint64_t i = 0; i < 1000; ++i)
    events.push_back(event(PROF_EVENT_SLICE, 100 * i, 50));
  BatchOrder order;
  EXPECT_EQ(batch_order(order, events), reference_order(events));
  EXPECT_EQ(batch_order(order, {}), std::vector<Packet>{});
  EXPECT_EQ(batch_order(order, {event(PROF_EVENT_INSTANT, 5, 0)}),
            (std::vector<Packet>{{0, false}}));
}

TEST(BatchOrder, BatchesSpanningMoreThanAPackedKey) {
  // 2^62 ns apart: the timestamps and packet numbers do not fit 64 bits.
  std::vector<prof_event> events;
  for (uint64_t i = 0; i < 50; ++i) {
    events.push_back(event(PROF_EVENT_SLICE, (i % 2) << 62 | (i % 5), i % 3));
    events.push_back(event(PROF_EVENT_INSTANT, (i % 2) << 62 | (i % 4), 0));
  }
  BatchOrder order;
  EXPECT_EQ(batch_order(order, events), reference_order(events));
}

} // namespace
} // namespace prof::perfetto
