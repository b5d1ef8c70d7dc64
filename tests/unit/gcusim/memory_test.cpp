// Device and pinned host memory: what the runtime allows, and the memory
// records (driver 1.2) a capture that selects General's "Memory" receives.
#include "gcusim_test_support.hpp"

#include <prof/event.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string_view>
#include <vector>

using namespace gcusim_test;

namespace {

std::vector<prof_gcu_memory_record> memory_records(Collector &collector) {
  std::vector<prof_gcu_memory_record> out;
  for (const prof_gcu_record &record : collector.records()) {
    EXPECT_EQ(record.kind, PROF_GCU_RECORD_MEMORY);
    prof_gcu_memory_record memory;
    std::memcpy(&memory, &record, sizeof memory);
    out.push_back(memory);
  }
  return out;
}

/// The reports of `function` among the collected API calls.
std::vector<prof_gcu_api_record> calls_of(Collector &collector, std::string_view function) {
  std::vector<prof_gcu_api_record> out;
  for (const prof_gcu_api_record &api : collector.apis())
    if (topology().api_domains[api.domain].functions[api.function] == function) out.push_back(api);
  return out;
}

} // namespace

TEST(Memory, PinnedHostMemoryIsRealAndNotDeviceMemory) {
  void *pinned = nullptr, *device = nullptr;
  ASSERT_EQ(gcuMallocHost(&pinned, 1000), gcuSuccess);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pinned) % 64, 0u);
  std::memset(pinned, 7, 1000); // real, writable memory
  ASSERT_EQ(gcuMalloc(&device, 1000), gcuSuccess);
  EXPECT_EQ(gcuMemcpyH2D(device, pinned, 1000), gcuSuccess);
  EXPECT_EQ(gcuMemcpyD2H(pinned, device, 1000), gcuSuccess);
  EXPECT_EQ(static_cast<unsigned char *>(pinned)[999], 7);
  EXPECT_EQ(gcuMemcpyD2D(device, pinned, 16), gcuErrorInvalidValue)
      << "pinned is not device memory";
  EXPECT_EQ(gcuMemset(pinned, 0, 16), gcuErrorInvalidValue);
  EXPECT_EQ(gcuFree(pinned), gcuErrorInvalidValue);
  EXPECT_EQ(gcuFreeHost(device), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMallocHost(nullptr, 16), gcuErrorInvalidValue);
  EXPECT_EQ(gcuMallocHost(&pinned, 0), gcuErrorInvalidValue);
  EXPECT_EQ(gcuFreeHost(pinned), gcuSuccess);
  EXPECT_EQ(gcuFreeHost(pinned), gcuErrorInvalidValue) << "double free";
  EXPECT_EQ(gcuFreeHost(nullptr), gcuSuccess);
  EXPECT_EQ(gcuFree(device), gcuSuccess);
}

TEST(Memory, TheMemoryActivityIsDescribedAsMemory) {
  const prof_gcu_topology &t = topology();
  const uint32_t general = engine_index("General");
  const uint32_t memory = item_index(general, "Memory");
  int found = 0;
  for (uint32_t i = 0; i < t.activity_desc_count; ++i)
    if (t.activity_descs[i].engine == general && t.activity_descs[i].activity == memory) {
      EXPECT_EQ(t.activity_descs[i].category, PROF_CATEGORY_MEMORY);
      EXPECT_EQ(t.activity_descs[i].flags, 0u);
      ++found;
    }
  EXPECT_EQ(found, 1);
  EXPECT_GE(driver().minor, 2);
}

TEST(Memory, RecordsFollowAllocationsAndFreesWithTheirCalls) {
  Collector collector;
  collector.subscribe(all_instances(0, "General", "Memory"), all_api_functions());
  ASSERT_EQ(gcuSetDevice(0), gcuSuccess);
  void *a = nullptr, *b = nullptr, *pinned = nullptr;
  ASSERT_EQ(gcuMalloc(&a, 1000), gcuSuccess);
  ASSERT_EQ(gcuMallocHost(&pinned, 300), gcuSuccess);
  ASSERT_EQ(gcuMalloc(&b, 5000), gcuSuccess);
  ASSERT_EQ(gcuFree(a), gcuSuccess);
  ASSERT_EQ(gcuFreeHost(pinned), gcuSuccess);
  ASSERT_EQ(gcuFree(b), gcuSuccess);
  ASSERT_EQ(gcuSetDevice(1), gcuSuccess); // not selected on device 1
  void *other = nullptr;
  ASSERT_EQ(gcuMalloc(&other, 64), gcuSuccess);
  ASSERT_EQ(gcuFree(other), gcuSuccess);
  ASSERT_EQ(gcuSetDevice(0), gcuSuccess);
  collector.flush();

  const std::vector<prof_gcu_memory_record> records = memory_records(collector);
  ASSERT_EQ(records.size(), 6u);
  struct Expected {
    uint16_t operation;
    uint16_t memory;
    void *address;
    uint64_t bytes;
  };
  const Expected expected[] = {{PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, a, 1000},
                               {PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_PINNED, pinned, 300},
                               {PROF_GCU_MEMORY_ALLOC, PROF_GCU_MEMORY_DEVICE, b, 5000},
                               {PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_DEVICE, a, 1000},
                               {PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_PINNED, pinned, 300},
                               {PROF_GCU_MEMORY_FREE, PROF_GCU_MEMORY_DEVICE, b, 5000}};
  const char *const functions[] = {"gcuMalloc", "gcuMallocHost", "gcuMalloc",
                                   "gcuFree",   "gcuFreeHost",   "gcuFree"};
  const uint32_t general = engine_index("General");
  std::vector<uint64_t> seen_ids;
  for (size_t i = 0; i < records.size(); ++i) {
    SCOPED_TRACE(i);
    const prof_gcu_memory_record &r = records[i];
    EXPECT_EQ(r.device, 0u);
    EXPECT_EQ(r.group, -1);
    EXPECT_EQ(r.engine, general);
    EXPECT_EQ(r.item, item_index(general, "Memory"));
    EXPECT_EQ(r.operation, expected[i].operation);
    EXPECT_EQ(r.memory, expected[i].memory);
    EXPECT_EQ(r.address, reinterpret_cast<uintptr_t>(expected[i].address));
    EXPECT_EQ(r.bytes, expected[i].bytes);
    EXPECT_EQ(r.reserved, 0u);
    if (i > 0) {
      EXPECT_GE(r.timestamp, records[i - 1].timestamp);
    }
    // The call's report carries the record's correlation id.
    bool tied = false;
    for (const prof_gcu_api_record &call : calls_of(collector, functions[i]))
      tied = tied || (call.correlation_id == r.correlation_id && call.device == 0 &&
                      call.result == gcuSuccess);
    EXPECT_TRUE(tied) << functions[i] << " with id " << r.correlation_id;
    EXPECT_NE(r.correlation_id, 0u);
    for (uint64_t id : seen_ids)
      EXPECT_NE(id, r.correlation_id);
    seen_ids.push_back(r.correlation_id);
  }
  // Device 1's calls made no record anyone took: their reports carry no id.
  for (const prof_gcu_api_record &call : calls_of(collector, "gcuMalloc"))
    if (call.device == 1) {
      EXPECT_EQ(call.correlation_id, 0u);
    }
}

TEST(Memory, NoRecordsWithoutTheMemoryActivity) {
  Collector collector;
  collector.subscribe(all_instances(0, "General", "Operator"), all_api_functions());
  void *a = nullptr;
  ASSERT_EQ(gcuMalloc(&a, 128), gcuSuccess);
  ASSERT_EQ(gcuFree(a), gcuSuccess);
  collector.flush();
  EXPECT_TRUE(collector.records().empty());
  for (const prof_gcu_api_record &call : calls_of(collector, "gcuMalloc"))
    EXPECT_EQ(call.correlation_id, 0u) << "no memory record: gcuMalloc carries no id";
}
