// A driver's memory records become prof's memory events: instants with the
// arguments event.h fixes on the device's "Memory" row, and a "Memory used"
// counter that follows live device memory only.
#include "memory_events.hpp"
#include <prof/correlation.hpp>

#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

#include <optional>

namespace prof::gcu {
namespace {

using testing::FakeSourceHost;

// A driver with two devices and nothing else: all the tracks need.
const prof_gcu_topology kTopology{
    sizeof(prof_gcu_topology), 2, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0};
const prof_gcu_driver kDriver = [] {
  prof_gcu_driver d{};
  d.struct_size = sizeof d;
  d.major = PROF_GCU_DRIVER_MAJOR;
  d.minor = PROF_GCU_DRIVER_MINOR;
  d.name = "memory-test";
  d.topology = [] { return &kTopology; };
  d.clock_frequency = [](uint32_t) { return 1e9; };
  d.clock_pair = [](uint32_t, uint64_t *host, uint64_t *ticks) {
    *host = *ticks = 0;
    return 0;
  };
  return d;
}();

constexpr int kPid = 4242;

prof_gcu_memory_record record(uint16_t device, prof_gcu_memory_operation operation,
                              prof_gcu_memory_kind memory, uint64_t address, uint64_t bytes,
                              uint64_t ts, uint64_t correlation) {
  prof_gcu_memory_record r{};
  r.kind = PROF_GCU_RECORD_MEMORY;
  r.device = device;
  r.operation = static_cast<uint16_t>(operation);
  r.memory = static_cast<uint16_t>(memory);
  r.address = address;
  r.bytes = bytes;
  r.timestamp = ts;
  r.correlation_id = correlation;
  return r;
}

class MemoryEventsTest : public ::testing::Test {
protected:
  const FakeSourceHost::Track &track(prof_track_id id) {
    tracks_ = fake_.tracks();
    for (const auto &t : tracks_)
      if (t.id == id) return t;
    ADD_FAILURE() << "no track " << id;
    return tracks_.front();
  }
  /// The track `name` under the device track `device`.
  std::optional<FakeSourceHost::Track> child_of_device(const std::string &device,
                                                       const std::string &name) {
    const auto all = fake_.tracks();
    for (const auto &parent : all) {
      if (parent.kind != PROF_TRACK_DEVICE || parent.name != device) continue;
      for (const auto &child : all)
        if (child.parent == parent.id && child.name == name) return child;
    }
    return std::nullopt;
  }

  FakeSourceHost fake_{0, testing::HostAbi::current};
  Host host_{fake_.api(), &fake_};
  DeviceTracks tracks_of_{host_, kDriver, kPid};
  MemoryEvents memory_{host_, tracks_of_, kPid};
  std::vector<FakeSourceHost::Track> tracks_;
};

TEST_F(MemoryEventsTest, InstantsCarryTheArgumentsStatisticsRead) {
  memory_.add(record(1, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x1000, 4096, 100, 7), 0);
  memory_.add(record(1, PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_PINNED, 0x9000, 64, 200, 0),
              host_.intern("Memory Op"));
  const auto instants = fake_.instants();
  ASSERT_EQ(instants.size(), 2u);
  const auto &alloc = instants[0];
  EXPECT_EQ(alloc.kind, PROF_CATEGORY_MEMORY);
  EXPECT_EQ(alloc.name, "alloc");
  EXPECT_EQ(alloc.category, "Memory");
  EXPECT_EQ(alloc.ts, 100u);
  EXPECT_EQ(alloc.args.at("operation"), "alloc");
  EXPECT_EQ(alloc.args.at("address"), "4096");
  EXPECT_EQ(alloc.args.at("bytes"), "4096");
  EXPECT_EQ(alloc.args.at("memory"), "device");
  EXPECT_EQ(alloc.args.at("correlation"), std::to_string(session_correlation(kPid, 7)));
  const auto &free = instants[1];
  EXPECT_EQ(free.name, "free");
  EXPECT_EQ(free.category, "Memory Op") << "the driver's name of the activity";
  EXPECT_EQ(free.args.at("operation"), "free");
  EXPECT_EQ(free.args.at("memory"), "pinned");
  EXPECT_EQ(free.args.count("correlation"), 0u) << "no call: no correlation argument";

  const auto &row = track(alloc.track);
  EXPECT_EQ(row.name, "Memory");
  const auto &device = track(row.parent);
  EXPECT_EQ(device.kind, PROF_TRACK_DEVICE);
  EXPECT_EQ(device.name, "GCU 1");
  EXPECT_EQ(free.track, alloc.track);
}

TEST_F(MemoryEventsTest, MemoryUsedFollowsLiveDeviceBlocksOnly) {
  memory_.add(record(0, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x1000, 1000, 10, 1), 0);
  memory_.add(record(0, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_PINNED, 0x8000, 500, 20, 2), 0);
  memory_.add(record(0, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x2000, 3000, 30, 3), 0);
  memory_.add(record(0, PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_DEVICE, 0x7000, 99, 35, 4), 0);
  memory_.add(record(0, PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_DEVICE, 0x1000, 1000, 40, 5), 0);
  memory_.add(record(1, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x1000, 64, 50, 6), 0);
  memory_.add(record(0, PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_PINNED, 0x8000, 500, 60, 7), 0);

  EXPECT_EQ(fake_.instants().size(), 7u) << "every record is an instant";
  const auto gcu0 = child_of_device("GCU 0", PROF_MEMORY_USED_TRACK);
  const auto gcu1 = child_of_device("GCU 1", PROF_MEMORY_USED_TRACK);
  ASSERT_TRUE(gcu0 && gcu1);
  EXPECT_EQ(gcu0->unit, "bytes");
  EXPECT_EQ(gcu0->kind, PROF_TRACK_COUNTER);
  // Pinned memory and the free of a block allocated before the capture
  // (0x7000) leave the counter alone.
  const auto values = fake_.values(gcu0->id);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0].ts, 10u);
  EXPECT_EQ(values[0].value, 1000);
  EXPECT_EQ(values[1].ts, 30u);
  EXPECT_EQ(values[1].value, 4000);
  EXPECT_EQ(values[2].ts, 40u);
  EXPECT_EQ(values[2].value, 3000);
  const auto other = fake_.values(gcu1->id);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].value, 64) << "each device counts its own";
}

TEST_F(MemoryEventsTest, UnknownOperationsAreSkipped) {
  auto odd = record(0, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x1000, 8, 1, 0);
  odd.operation = 9;
  memory_.add(odd, 0);
  EXPECT_TRUE(fake_.instants().empty());
  EXPECT_TRUE(fake_.counters().empty());
  // A memory kind it does not know is still an allocation, without `memory`.
  auto managed = record(0, PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, 0x1000, 8, 2, 0);
  managed.memory = 3;
  memory_.add(managed, 0);
  ASSERT_EQ(fake_.instants().size(), 1u);
  EXPECT_EQ(fake_.instants()[0].args.count("memory"), 0u);
  EXPECT_TRUE(fake_.counters().empty()) << "not known to be device memory";
}

// ABI 1.10: the rows of the process's allocations are its own; the device
// (and its utilization) every process's.
TEST_F(MemoryEventsTest, TheMemoryRowsAreTheProcesssAndTheDeviceShared) {
  const FakeSourceHost::Track row = track(tracks_of_.memory(1));
  EXPECT_EQ(row.pid, kPid);
  EXPECT_EQ(row.flags, 0u);
  EXPECT_EQ(track(tracks_of_.memory_used(1)).pid, kPid);
  const FakeSourceHost::Track device = track(tracks_of_.device(1));
  EXPECT_EQ(device.pid, 0);
  EXPECT_EQ(device.flags, PROF_TRACK_SHARED);
  const FakeSourceHost::Track busy = track(tracks_of_.utilization(device.id, "GCU 1 utilization"));
  EXPECT_EQ(busy.pid, 0);
  EXPECT_EQ(busy.flags, PROF_TRACK_SHARED);
}

} // namespace
} // namespace prof::gcu
