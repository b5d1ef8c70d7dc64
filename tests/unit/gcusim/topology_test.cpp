// The device tree the gcu plugin prints in topsprof's --query-activities layout.
#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <prof/event.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace gcusim_test;

namespace {

using Names = std::vector<std::string>;

Names names(const char *const *list, uint32_t count) { return Names(list, list + count); }

struct ExpectedEngine {
  const char *name;
  int32_t group;
  uint32_t count;
  Names activities;
  Names events;
};

const Names kDma = {"DMA VC Execution", "DMA Busy"};

} // namespace

TEST(Topology, DriverTableDescribesItself) {
  const prof_gcu_driver &d = driver();
  EXPECT_EQ(d.struct_size, sizeof(prof_gcu_driver));
  EXPECT_EQ(d.major, PROF_GCU_DRIVER_MAJOR);
  EXPECT_EQ(d.minor, PROF_GCU_DRIVER_MINOR);
  EXPECT_STREQ(d.name, "gcusim");
  EXPECT_NE(d.version, nullptr);
  EXPECT_EQ(&d, prof_gcu_driver_entry());
}

// Driver 1.3: the runtime functions that wait for the device are sync
// calls; no other function is described.
TEST(Topology, TheFunctionsThatWaitForTheDeviceAreSyncCalls) {
  const prof_gcu_topology &t = topology();
  ASSERT_GE(t.struct_size, offsetof(prof_gcu_topology, api_desc_count) + sizeof(uint32_t));
  Names waits;
  for (uint32_t i = 0; i < t.api_desc_count; ++i) {
    const prof_gcu_api_desc &d = t.api_descs[i];
    ASSERT_LT(d.domain, t.api_domain_count);
    ASSERT_LT(d.function, t.api_domains[d.domain].function_count);
    EXPECT_EQ(d.category, PROF_CATEGORY_SYNC);
    waits.push_back(t.api_domains[d.domain].functions[d.function]);
  }
  EXPECT_EQ(waits, (Names{"gcuStreamSynchronize", "gcuEventSynchronize", "gcuDeviceSynchronize"}));
}

TEST(Topology, MatchesTopsprofLayout) {
  const prof_gcu_topology &t = topology();
  EXPECT_EQ(t.struct_size, sizeof(prof_gcu_topology));
  EXPECT_EQ(t.device_count, 2u); // GCUSIM_DEVICES unset
  ASSERT_EQ(t.group_count, 2u);
  EXPECT_STREQ(t.groups[0].name, "Cluster");
  EXPECT_EQ(t.groups[0].count, 4u);
  EXPECT_STREQ(t.groups[1].name, "ClusterLite");
  EXPECT_EQ(t.groups[1].count, 2u);

  const std::vector<ExpectedEngine> expected = {
      {"CDMA", 0, 4, kDma, {}},
      {"CQM",
       0,
       1,
       {"CQM Step Debug Packet", "CQM Op Debug Packet", "CQM Command Packet", "CQM Loop Task",
        "CQM Executable Execute", "CQM Sleep"},
       {}},
      {"SDMA", 0, 6, kDma, {}},
      {"SIP", 0, 6, {"SIP Busy"}, {}},
      {"SIPPMC",
       0,
       6,
       {},
       {"sip_busy_without_wait", "sip_busy_with_wait", "sip_instructions", "sip_stall_cycles"}},
      {"CDMA_LITE", 1, 2, kDma, {}},
      {"SDMA_LITE", 1, 1, kDma, {}},
      {"SIP_LITE", 1, 1, {"SIP Busy"}, {}},
      {"General", -1, 1, {"Task Pipeline", "Launch Kernel", "Operator", "Memory"}, {}},
      {"TS",
       -1,
       1,
       {"TS Record Stream", "TS Wait Stream", "TS VDEC Executable Launch",
        "TS HCVG Executable Launch", "TS CQM Executable Launch", "TS Parse EDMA", "TS VG Config",
        "TS Memory Wait", "TS Register Wait", "TS Memory Write", "TS Register Write", "TS ISR",
        "TS Parse GDMA", "TS Read Packet", "TS Command Packet"},
       {}},
  };
  ASSERT_EQ(t.engine_count, expected.size());
  for (size_t e = 0; e < expected.size(); ++e) {
    const prof_gcu_engine_desc &engine = t.engines[e];
    SCOPED_TRACE(expected[e].name);
    EXPECT_STREQ(engine.name, expected[e].name);
    EXPECT_EQ(engine.group, expected[e].group);
    EXPECT_EQ(engine.count, expected[e].count);
    EXPECT_EQ(names(engine.activities, engine.activity_count), expected[e].activities);
    EXPECT_EQ(names(engine.events, engine.event_count), expected[e].events);
  }

  ASSERT_EQ(t.api_domain_count, 1u);
  EXPECT_STREQ(t.api_domains[0].name, "RUNTIME");
  const Names functions = {"gcuInit",
                           "gcuGetDeviceCount",
                           "gcuSetDevice",
                           "gcuGetDevice",
                           "gcuMalloc",
                           "gcuFree",
                           "gcuMemcpyH2D",
                           "gcuMemcpyD2H",
                           "gcuMemcpyD2D",
                           "gcuMemcpyH2DAsync",
                           "gcuMemcpyD2HAsync",
                           "gcuMemcpyD2DAsync",
                           "gcuMemset",
                           "gcuMemsetAsync",
                           "gcuLaunchKernel",
                           "gcuStreamCreate",
                           "gcuStreamDestroy",
                           "gcuStreamSynchronize",
                           "gcuStreamWaitEvent",
                           "gcuEventCreate",
                           "gcuEventDestroy",
                           "gcuEventRecord",
                           "gcuEventSynchronize",
                           "gcuEventElapsedTime",
                           "gcuDeviceSynchronize",
                           "gcuProfilerStart",
                           "gcuProfilerStop",
                           "gcuMallocHost",
                           "gcuFreeHost",
                           "gcuLaunchCollectiveKernel"};
  EXPECT_EQ(names(t.api_domains[0].functions, t.api_domains[0].function_count), functions);
}

TEST(Topology, LabelsOfUnknownIdsAreEmpty) {
  EXPECT_STREQ(driver().label(0), "");
  EXPECT_STREQ(driver().label(0xFFFFFFFFu), "");
}

TEST(Topology, BusyTicksCountSipsPerGroup) {
  uint64_t busy = 0;
  uint32_t units = 0;
  ASSERT_EQ(driver().busy_ticks(0, -1, 0, &busy, &units), 0);
  EXPECT_EQ(units, 4u * 6u + 2u);
  ASSERT_EQ(driver().busy_ticks(0, 0, 3, &busy, &units), 0);
  EXPECT_EQ(units, 6u);
  ASSERT_EQ(driver().busy_ticks(1, 1, 1, &busy, &units), 0);
  EXPECT_EQ(units, 1u);
  EXPECT_NE(driver().busy_ticks(2, -1, 0, &busy, &units), 0);
  EXPECT_NE(driver().busy_ticks(0, 0, 4, &busy, &units), 0);
  EXPECT_NE(driver().busy_ticks(0, 2, 0, &busy, &units), 0);
  EXPECT_NE(driver().busy_ticks(0, -1, 0, nullptr, &units), 0);
}

TEST(Topology, DeviceCountComesFromTheEnvironment) {
  ChildResult child = run_test_in_child("InChild.ThreeDevices", {"GCUSIM_DEVICES=3"});
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;

  child = run_test_in_child("InChild.DefaultDevicesAfterWarning", {"GCUSIM_DEVICES=99"});
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("gcusim: GCUSIM_DEVICES=99 is not a whole number from 1 to 16; "
                              "using the default\n"),
            std::string::npos)
      << child.output;
}

TEST(InChild, ThreeDevices) {
  if (!in_child()) GTEST_SKIP() << "run by Topology.DeviceCountComesFromTheEnvironment";
  EXPECT_EQ(topology().device_count, 3u);
  int count = 0;
  ASSERT_EQ(gcuGetDeviceCount(&count), gcuSuccess);
  EXPECT_EQ(count, 3);
  EXPECT_EQ(gcuSetDevice(2), gcuSuccess);
  EXPECT_EQ(gcuSetDevice(3), gcuErrorInvalidDevice);
}

TEST(InChild, DefaultDevicesAfterWarning) {
  if (!in_child()) GTEST_SKIP() << "run by Topology.DeviceCountComesFromTheEnvironment";
  EXPECT_EQ(topology().device_count, 2u);
}
