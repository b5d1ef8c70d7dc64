#include <prof/activity/filter.hpp>

#include "tests/support/gcu_test_topology.hpp"
#include <prof/activity/device_tree.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace prof::activity {
namespace {

using namespace testing;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

Selection select(std::string_view filter, ItemKind kind = ItemKind::Activity) {
  return parse_filter(gcu_test_topology(), kind, filter);
}

/// The message parse_filter throws, or "" when it accepts the filter.
std::string error_of(std::string_view filter, ItemKind kind = ItemKind::Activity) {
  try {
    select(filter, kind);
  } catch (const SelectionError &e) {
    return e.what();
  }
  return "";
}

std::size_t count_engine(const Selection &s, uint32_t engine) {
  return std::count_if(s.items.begin(), s.items.end(),
                       [&](const prof_gcu_item &i) { return i.engine == engine; });
}

bool sorted_unique(const Selection &s) {
  return std::adjacent_find(s.items.begin(), s.items.end(),
                            [](auto &a, auto &b) { return !item_less(a, b); }) == s.items.end() &&
         std::adjacent_find(s.apis.begin(), s.apis.end(),
                            [](auto &a, auto &b) { return !api_less(a, b); }) == s.apis.end();
}

// --- the manual's examples ---------------------------------------------------

TEST(FilterParser, SipBusyEverywhereMatchesSipAndSipLite) {
  const Selection s = select("*/*/*/SIP Busy");
  EXPECT_EQ(s.items.size(), 52u); // 2 devices x (4 clusters x 6 SIP + 2 lite clusters x 1 SIP_LITE)
  EXPECT_EQ(count_engine(s, kSip), 48u);
  EXPECT_EQ(count_engine(s, kSipLite), 4u);
  EXPECT_TRUE(s.apis.empty());
  EXPECT_TRUE(sorted_unique(s));
  const std::vector<std::string> lines = describe(s, ItemKind::Activity);
  EXPECT_EQ(lines.front(), "Device0/Cluster0/SIP0/SIP Busy");
  EXPECT_EQ(lines.back(), "Device1/ClusterLite1/SIP_LITE0/SIP Busy");
}

TEST(FilterParser, AllRuntimeApiFunctions) {
  const Selection s = select("Api Trace/RUNTIME/*");
  EXPECT_TRUE(s.items.empty());
  ASSERT_EQ(s.apis.size(), runtime_functions().size());
  for (uint32_t f = 0; f < s.apis.size(); ++f) {
    EXPECT_EQ(s.apis[f].domain, 0u);
    EXPECT_EQ(s.apis[f].function, f);
  }
}

TEST(FilterParser, SipBusyInCluster1OfEveryDevice) {
  const Selection s = select("*/cluster1/*/SIP Busy");
  ASSERT_EQ(s.items.size(), 12u);
  for (const prof_gcu_item &i : s.items) {
    EXPECT_EQ(i.group, kCluster);
    EXPECT_EQ(i.group_index, 1u);
    EXPECT_EQ(i.engine, kSip);
    EXPECT_EQ(i.item, 0u);
  }
}

TEST(FilterParser, SdmaAndCdmaOfOneCluster) {
  const Selection s = select("0/cluster1/sdma,cdma/*");
  EXPECT_EQ(s.items.size(), 20u); // 6 SDMA x 2 + 4 CDMA x 2
  EXPECT_EQ(count_engine(s, kSdma), 12u);
  EXPECT_EQ(count_engine(s, kCdma), 8u);
  for (const prof_gcu_item &i : s.items) {
    EXPECT_EQ(i.device, 0u);
    EXPECT_EQ(i.group, kCluster);
    EXPECT_EQ(i.group_index, 1u);
  }
}

TEST(FilterParser, SdmaAndCdmaOfEveryClusterOfDevice0) {
  const Selection s = select("0/*/sdma,cdma/*");
  EXPECT_EQ(s.items.size(), 80u); // 4 clusters x 20; the Lite clusters have no SDMA/CDMA
  EXPECT_EQ(count_engine(s, kCdmaLite), 0u);
  EXPECT_EQ(count_engine(s, kSdmaLite), 0u);
}

TEST(FilterParser, TwoRules) {
  const Selection s = select("0/cluster1/sdma/*|1/cluster2/cdma/*");
  EXPECT_EQ(s.items.size(), 20u); // 6 x 2 + 4 x 2
  for (const prof_gcu_item &i : s.items) {
    if (i.device == 0) {
      EXPECT_EQ(i.engine, kSdma);
      EXPECT_EQ(i.group_index, 1u);
    } else {
      EXPECT_EQ(i.engine, kCdma);
      EXPECT_EQ(i.group_index, 2u);
    }
  }
  EXPECT_EQ(count_engine(s, kSdma), 12u);
}

TEST(FilterParser, OperatorOfGeneral) {
  EXPECT_THAT(describe(select("*/general/operator"), ItemKind::Activity),
              ElementsAre("Device0/General0/Operator", "Device1/General0/Operator"));
}

TEST(FilterParser, AllSelectsEveryActivityAndApiFunction) {
  const Selection s = select("all");
  EXPECT_EQ(s.items.size(), 320u); // 2 x (4 x 32 + 2 x 7 + 3 + 15)
  EXPECT_EQ(s.apis.size(), 6u);
  EXPECT_TRUE(sorted_unique(s));
  std::vector<prof_gcu_item> every = DeviceTree(gcu_test_topology()).all_items(ItemKind::Activity);
  std::sort(every.begin(), every.end(), item_less);
  EXPECT_TRUE(std::equal(every.begin(), every.end(), s.items.begin(), s.items.end(), item_equal));
}

TEST(FilterParser, AllEventsHasNoApis) {
  const Selection s = select("all", ItemKind::Event);
  EXPECT_EQ(s.items.size(), 192u); // 2 devices x 4 clusters x 6 SIPPMC x 4 events
  EXPECT_TRUE(s.apis.empty());
  EXPECT_EQ(count_engine(s, kSipPmc), 192u);
}

TEST(FilterParser, OneEventOfEverySipPmc) {
  const Selection s = select("*/*/sippmc/sip_busy_with_wait", ItemKind::Event);
  EXPECT_EQ(s.items.size(), 48u);
  for (const prof_gcu_item &i : s.items)
    EXPECT_EQ(i.item, 1u);
}

TEST(FilterParser, ExamplesSelectExactlyTheseItems) {
  Selection sip_busy;
  for (uint32_t d = 0; d < 2; ++d) {
    for (uint32_t gi = 0; gi < 4; ++gi)
      for (uint32_t ei = 0; ei < 6; ++ei)
        sip_busy.items.push_back({d, kCluster, gi, kSip, ei, 0});
    for (uint32_t gi = 0; gi < 2; ++gi)
      sip_busy.items.push_back({d, kClusterLite, gi, kSipLite, 0, 0});
  }
  normalize(sip_busy);
  EXPECT_EQ(select("*/*/*/SIP Busy"), sip_busy);

  Selection two_rules;
  for (uint32_t ei = 0; ei < 6; ++ei)
    for (uint32_t i = 0; i < 2; ++i)
      two_rules.items.push_back({0, kCluster, 1, kSdma, ei, i});
  for (uint32_t ei = 0; ei < 4; ++ei)
    for (uint32_t i = 0; i < 2; ++i)
      two_rules.items.push_back({1, kCluster, 2, kCdma, ei, i});
  EXPECT_EQ(select("0/cluster1/sdma/*|1/cluster2/cdma/*"), two_rules); // already in order

  Selection cluster1;
  for (uint32_t d = 0; d < 2; ++d)
    for (uint32_t ei = 0; ei < 6; ++ei)
      cluster1.items.push_back({d, kCluster, 1, kSip, ei, 0});
  EXPECT_EQ(select("*/cluster1/*/SIP Busy"), cluster1);

  const Selection operators{{{0, -1, 0, kGeneral, 0, 2}, {1, -1, 0, kGeneral, 0, 2}}, {}};
  EXPECT_EQ(select("*/general/operator"), operators);
}

// --- names, indexes, case and whitespace ------------------------------------

TEST(FilterParser, CaseAndWhitespaceDoNotMatter) {
  EXPECT_EQ(select(" 0 / CLUSTER1 / SDMA , Cdma / * "), select("0/cluster1/sdma,cdma/*"));
  EXPECT_EQ(select("*/*/*/sip busy"), select("*/*/*/SIP Busy"));
  EXPECT_EQ(select(" 0/cluster1/sdma/* | 1/cluster2/cdma/* "),
            select("0/cluster1/sdma/*|1/cluster2/cdma/*"));
  EXPECT_EQ(select(" ALL "), select("all"));
  EXPECT_EQ(select("*/GENERAL/OPERATOR"), select("*/general/operator"));
  const Selection api = select("  api trace / runtime / GCUINIT , gcumalloc ");
  ASSERT_EQ(api.apis.size(), 2u);
  EXPECT_EQ(api.apis[0].function, 0u);
  EXPECT_EQ(api.apis[1].function, 1u);
}

TEST(FilterParser, SpacesInsideItemNamesCount) {
  EXPECT_THAT(error_of("*/*/*/SIPBusy"), HasSubstr("'SIPBusy'"));
  EXPECT_THAT(error_of("*/*/*/SIP  Busy"), HasSubstr("'SIP  Busy'"));
}

TEST(FilterParser, IndexSuffixesNameOneInstance) {
  EXPECT_EQ(select("*/clusterlite0/*/*").items.size(), 14u); // 2 devices x (4 + 2 + 1)
  const Selection sdma2 = select("0/cluster1/sdma2/*");
  EXPECT_THAT(
      describe(sdma2, ItemKind::Activity),
      ElementsAre("Device0/Cluster1/SDMA2/DMA VC Execution", "Device0/Cluster1/SDMA2/DMA Busy"));
  EXPECT_EQ(select("1/*/sip5/SIP Busy").items.size(), 4u); // SIP_LITE has no index 5; not matched
  EXPECT_EQ(select("0/general0/*").items.size(), 3u);
  EXPECT_EQ(select("0,1/cluster0,cluster3/cqm/CQM Sleep").items.size(), 4u);
  EXPECT_EQ(select("0/cluster01/sip/*"), select("0/cluster1/sip/*"));
}

TEST(FilterParser, ItemMayMatchOnlySomeEnginesOfAList) {
  const Selection s = select("0/cluster0/sip,sdma/SIP Busy,DMA Busy");
  EXPECT_EQ(count_engine(s, kSip), 6u);
  EXPECT_EQ(count_engine(s, kSdma), 6u);
  EXPECT_EQ(s.items.size(), 12u);
  EXPECT_EQ(select("*/*/*/DMA Busy").items.size(), 92u); // 2 x (4 x (4 + 6) + 2 x 2 + 2 x 1)
  EXPECT_EQ(select("0/cluster0/*/*", ItemKind::Event).items.size(), 24u);
  EXPECT_EQ(select("*/*/sippmc,sip/*", ItemKind::Event).items.size(), 192u);
}

TEST(FilterParser, OverlappingRulesGiveOneSortedSet) {
  const Selection s = select("0/*/sip/*|0/cluster1/sip/*|*/*/sip0/SIP Busy|all");
  EXPECT_TRUE(sorted_unique(s));
  EXPECT_EQ(s, select("all"));
  const Selection t = select("0/cluster1/sip/*|0/*/sip/*");
  EXPECT_EQ(t.items.size(), 24u);
  EXPECT_TRUE(sorted_unique(t));
}

TEST(FilterParser, DeviceLists) {
  EXPECT_EQ(select("1,0/ts/TS ISR").items.size(), 2u);
  EXPECT_EQ(select("1/ts/TS ISR").items.front().device, 1u);
  EXPECT_EQ(select("*,1/ts/*").items.size(), 30u);
}

// --- errors ------------------------------------------------------------------

TEST(FilterParser, ErrorsQuoteTheFilterAndPointAtThePart) {
  EXPECT_EQ(error_of("0/cluster7/sip/*"),
            "filter \"0/cluster7/sip/*\" at 'cluster7' (column 3): Cluster has 0 ~ 3");
  EXPECT_EQ(error_of("0/cluster1/sdma/*|1/cluster9/cdma/*"),
            "filter \"0/cluster1/sdma/*|1/cluster9/cdma/*\" at 'cluster9' (column 21): Cluster has "
            "0 ~ 3");
  EXPECT_EQ(error_of("0/cluster1/sip/DMA Busy"),
            "filter \"0/cluster1/sip/DMA Busy\" at 'DMA Busy' (column 16): not an activity of SIP "
            "(its activities: SIP Busy)");
}

TEST(FilterParser, EmptyFilterRuleOrLevel) {
  EXPECT_THAT(error_of(""), HasSubstr("empty filter"));
  EXPECT_THAT(error_of("   "), HasSubstr("empty filter"));
  EXPECT_THAT(error_of("0/*/sip/*||all"), HasSubstr("(column 11): empty rule"));
  EXPECT_THAT(error_of("*/*/*/SIP Busy|"), HasSubstr("empty rule"));
  EXPECT_THAT(error_of("0//sip/*"), HasSubstr("(column 3): empty level"));
  EXPECT_THAT(error_of("0/cluster1/sip/"), HasSubstr("empty level"));
  EXPECT_THAT(error_of("0/cluster1,/sip/*"), HasSubstr("empty name"));
  EXPECT_THAT(error_of("0/cluster1/sip/SIP Busy,"), HasSubstr("empty name"));
  EXPECT_THAT(error_of(",0/cluster1/sip/*"), HasSubstr("(column 1): empty name"));
}

TEST(FilterParser, WrongNumberOfLevels) {
  EXPECT_THAT(error_of("sip"), HasSubstr("found 1"));
  EXPECT_THAT(error_of("0/sip"), HasSubstr("found 2"));
  EXPECT_THAT(error_of("0/1/2/3/4"), AllOf(HasSubstr("'0/1/2/3/4'"), HasSubstr("found 5")));
  EXPECT_THAT(error_of("Api Trace/runtime/*/x"),
              HasSubstr("expected 3 levels, Api Trace/domain/function"));
}

TEST(FilterParser, BadDevices) {
  EXPECT_THAT(error_of("2/*/sip/*"),
              HasSubstr("'2' (column 1): no such device; devices are 0 ~ 1"));
  EXPECT_THAT(error_of("0,5/*/sip/*"), HasSubstr("'5' (column 3): no such device"));
  EXPECT_THAT(error_of("x/*/sip/*"),
              HasSubstr("'x' (column 1): not a device; expected a device number"));
  EXPECT_THAT(error_of("-1/*/sip/*"), HasSubstr("not a device"));
  EXPECT_THAT(error_of("99999999999999999999999/*/sip/*"), HasSubstr("no such device"));
  EXPECT_THAT(error_of("dev/general/*"), HasSubstr("'Api Trace'"));
}

TEST(FilterParser, UnknownOrMisplacedClusters) {
  EXPECT_THAT(error_of("0/clusterx/sip/*"),
              HasSubstr("'clusterx' (column 3): unknown cluster; expected a cluster (Cluster, "
                        "ClusterLite)"));
  EXPECT_THAT(error_of("0/clusterlite2/*/*"),
              HasSubstr("'clusterlite2' (column 3): ClusterLite has 0 ~ 1"));
  EXPECT_THAT(error_of("0/cluster99999999999999999999999/sip/*"), HasSubstr("Cluster has 0 ~ 3"));
  EXPECT_THAT(error_of("0/general/*/*"),
              HasSubstr("'general' (column 3): an engine of the device itself, not a cluster; use "
                        "device/engine/activity"));
  EXPECT_THAT(error_of("0/sip/*/*"), HasSubstr("'sip' (column 3): an engine, not a cluster"));
}

TEST(FilterParser, UnknownOrMisplacedEngines) {
  EXPECT_THAT(
      error_of("0/sip/SIP Busy"),
      HasSubstr("'sip' (column 3): an engine inside Cluster; use device/cluster/engine/activity"));
  EXPECT_THAT(error_of("0/sippmc/*", ItemKind::Event),
              HasSubstr("use device/cluster/engine/event"));
  EXPECT_THAT(error_of("0/cluster1/sip"),
              HasSubstr("'cluster1' (column 3): a cluster, not an engine"));
  EXPECT_THAT(
      error_of("0/cluster1/cdma_lite/*"),
      HasSubstr("'cdma_lite' (column 12): an engine of ClusterLite, not of the clusters this "
                "rule names"));
  EXPECT_THAT(
      error_of("0/cluster1/foo/*"),
      HasSubstr("'foo' (column 12): unknown engine; expected an engine of Cluster (CDMA, CQM, "
                "SDMA, SIP, SIPPMC)"));
  EXPECT_THAT(error_of("0/cluster1/ts/*"), HasSubstr("an engine of the device itself"));
  EXPECT_THAT(error_of("0/cluster1/sdma6/*"), HasSubstr("'sdma6' (column 12): SDMA has 0 ~ 5"));
  EXPECT_THAT(error_of("0/foo/*"),
              HasSubstr("expected an engine of the device itself (General, TS)"));
  EXPECT_THAT(error_of("0/ts1/*"), HasSubstr("TS has 0 ~ 0"));
}

TEST(FilterParser, NamesThatMatchNothingInTheRule) {
  EXPECT_THAT(error_of("0/cluster1/sip,sdma/SIP Busy,Foo"),
              HasSubstr("'Foo' (column 30): not an activity of SIP, SDMA"));
  EXPECT_THAT(error_of("0/ts/TS Foo"), HasSubstr("'TS Foo' (column 6): not an activity of TS"));
  EXPECT_THAT(error_of("*/*/sippmc/sip_foo", ItemKind::Event),
              HasSubstr("'sip_foo' (column 12): not an event of SIPPMC"));
  EXPECT_THAT(error_of("*/*/*/sip_busy_with_wait"), HasSubstr("not an activity of"));
}

TEST(FilterParser, RulesThatSelectNothing) {
  EXPECT_THAT(error_of("*/*/sippmc/*"),
              HasSubstr("'*/*/sippmc/*' (column 1): selects nothing: SIPPMC has no activities"));
  EXPECT_THAT(error_of("0/*/sip/*|*/*/sip/*", ItemKind::Event),
              HasSubstr("'0/*/sip/*' (column 1): selects nothing: SIP has no events"));
  EXPECT_THAT(error_of("*/general/*", ItemKind::Event), HasSubstr("General has no events"));
}

TEST(FilterParser, ApiTraceErrors) {
  EXPECT_THAT(error_of("Api Trace/RUNTIME/*", ItemKind::Event),
              HasSubstr("'Api Trace' (column 1): events have no Api Trace"));
  EXPECT_THAT(error_of("Api Trace/FOO/*"),
              HasSubstr("'FOO' (column 11): unknown API domain; expected an API domain (RUNTIME)"));
  EXPECT_THAT(error_of("Api Trace/RUNTIME/gcuFoo"),
              HasSubstr("'gcuFoo' (column 19): not a function of RUNTIME (functions: gcuInit"));
  EXPECT_THAT(error_of("Api Trace/runtime1/*"), HasSubstr("RUNTIME has 0 ~ 0"));
  EXPECT_EQ(select("Api Trace/runtime0/gcuInit").apis.size(), 1u);
}

TEST(FilterParser, ErrorsStayOnOneLine) {
  const std::string e = error_of("0/cluster7\n/sip/*");
  EXPECT_THAT(e, HasSubstr("Cluster has 0 ~ 3"));
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(FilterParser, GarbageNeverCrashes) {
  const std::string alphabet = "0123*/,| |/sipcluster1liteApi TracegeneralRUNTIME\t";
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    std::string text(random() % 40, ' ');
    for (char &c : text)
      c = alphabet[random() % alphabet.size()];
    for (ItemKind kind : {ItemKind::Activity, ItemKind::Event}) {
      try {
        EXPECT_FALSE(select(text, kind).empty());
      } catch (const SelectionError &e) {
        EXPECT_EQ(std::string_view(e.what()).find('\n'), std::string_view::npos);
      }
    }
  }
}

TEST(FilterParser, RuleDevices) {
  const std::vector<RuleDevices> rules =
      filter_rule_devices(gcu_test_topology(), ItemKind::Activity,
                          "1,0/cluster1/sdma/*| */ts/* |Api Trace/RUNTIME/*|all");
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0].rule, "1,0/cluster1/sdma/*");
  EXPECT_FALSE(rules[0].all_devices);
  EXPECT_THAT(rules[0].devices, ElementsAre(0u, 1u));
  EXPECT_EQ(rules[1].rule, "*/ts/*");
  EXPECT_TRUE(rules[1].all_devices);
  EXPECT_TRUE(rules[1].devices.empty());
  EXPECT_FALSE(rules[2].all_devices);
  EXPECT_TRUE(rules[2].devices.empty());
  EXPECT_TRUE(rules[3].all_devices);
  EXPECT_THROW(filter_rule_devices(gcu_test_topology(), ItemKind::Activity, "5/ts/*"),
               SelectionError);
}

} // namespace
} // namespace prof::activity
