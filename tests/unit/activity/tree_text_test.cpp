#include <prof/activity/tree_text.hpp>

#include "tests/support/gcu_test_topology.hpp"

#include <gtest/gtest.h>

namespace prof::activity {
namespace {

using testing::gcu_test_topology;

const char *const kTs =
    "TS(0 ~ 0):TS Record Stream,TS Wait Stream,TS VDEC Executable Launch,"
    "TS HCVG Executable Launch,TS CQM Executable Launch,TS Parse EDMA,TS VG Config,"
    "TS Memory Wait,TS Register Wait,TS Memory Write,TS Register Write,TS ISR,TS Parse GDMA,"
    "TS Read Packet,TS Command Packet";

TEST(TreeText, ActivitiesAsTopsprofQueryActivities) {
  const std::vector<std::string> expected = {
      "==== Device(0 ~ 1):",
      "Cluster(0 ~ 3):",
      "CDMA(0 ~ 3):DMA VC Execution,DMA Busy",
      "CQM(0 ~ 0):CQM Step Debug Packet,CQM Op Debug Packet,CQM Command Packet,CQM Loop Task,"
      "CQM Executable Execute,CQM Sleep",
      "SDMA(0 ~ 5):DMA VC Execution,DMA Busy",
      "SIP(0 ~ 5):SIP Busy",
      "SIPPMC(0 ~ 5):",
      "ClusterLite(0 ~ 1):",
      "CDMA_LITE(0 ~ 1):DMA VC Execution,DMA Busy",
      "SDMA_LITE(0 ~ 0):DMA VC Execution,DMA Busy",
      "SIP_LITE(0 ~ 0):SIP Busy",
      "General(0 ~ 0):Task Pipeline,Launch Kernel,Operator",
      kTs,
      "==== Api Trace:",
      "RUNTIME(0 ~ 0):gcuInit,gcuMalloc,gcuFree,gcuMemcpyH2D,gcuMemcpyD2H,gcuLaunchKernel",
  };
  EXPECT_EQ(format_tree(gcu_test_topology(), ItemKind::Activity), expected);
}

TEST(TreeText, EventsListEventsAndNoApiTrace) {
  const std::vector<std::string> expected = {
      "==== Device(0 ~ 1):",
      "Cluster(0 ~ 3):",
      "CDMA(0 ~ 3):",
      "CQM(0 ~ 0):",
      "SDMA(0 ~ 5):",
      "SIP(0 ~ 5):",
      "SIPPMC(0 ~ 5):sip_busy_without_wait,sip_busy_with_wait,sip_instructions,sip_stall_cycles",
      "ClusterLite(0 ~ 1):",
      "CDMA_LITE(0 ~ 1):",
      "SDMA_LITE(0 ~ 0):",
      "SIP_LITE(0 ~ 0):",
      "General(0 ~ 0):",
      "TS(0 ~ 0):",
  };
  EXPECT_EQ(format_tree(gcu_test_topology(), ItemKind::Event), expected);
}

TEST(TreeText, ApiDomainsAlone) {
  const std::vector<std::string> expected = {
      "==== Api Trace:",
      "RUNTIME(0 ~ 0):gcuInit,gcuMalloc,gcuFree,gcuMemcpyH2D,gcuMemcpyD2H,gcuLaunchKernel",
  };
  EXPECT_EQ(format_api_domains(gcu_test_topology()), expected);
}

TEST(TreeText, EmptyAndNullPartsOfATopologyPrintSafely) {
  const prof_gcu_group_desc groups[] = {{nullptr, 0}};
  const prof_gcu_engine_desc engines[] = {
      {"X", 0, 2, nullptr, 5, nullptr, 5},    // null lists with counts read as empty
      {"Lost", 7, 1, nullptr, 0, nullptr, 0}, // unknown group: left out
  };
  const prof_gcu_topology topology = {
      sizeof(prof_gcu_topology), 0, groups, 1, engines, 2, nullptr, 3};
  const std::vector<std::string> expected = {
      "==== Device(none):", "(none):", "X(0 ~ 1):", "==== Api Trace:"};
  EXPECT_EQ(format_tree(topology, ItemKind::Activity), expected);
}

} // namespace
} // namespace prof::activity
