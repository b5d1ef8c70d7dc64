#include <prof/activity/device_list.hpp>

#include "tests/support/gcu_test_topology.hpp"
#include <prof/activity/filter.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace prof::activity {
namespace {

using namespace testing;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string list_error(std::string_view text) {
  try {
    parse_device_list(gcu_test_topology(), text);
  } catch (const SelectionError &e) {
    return e.what();
  }
  return "";
}

Selection restrict(std::string_view filter, const std::vector<uint32_t> &devices,
                   ItemKind kind = ItemKind::Activity) {
  const char *option = kind == ItemKind::Activity ? "--enable-activities" : "--enable-events";
  const Selection all = parse_filter(gcu_test_topology(), kind, filter);
  return restrict_to_devices(gcu_test_topology(), kind, filter, all, devices, option);
}

std::string restrict_error(std::string_view filter, const std::vector<uint32_t> &devices,
                           ItemKind kind = ItemKind::Activity) {
  try {
    restrict(filter, devices, kind);
  } catch (const SelectionError &e) {
    return e.what();
  }
  return "";
}

TEST(DeviceList, Parses) {
  EXPECT_THAT(parse_device_list(gcu_test_topology(), "0,1"), ElementsAre(0u, 1u));
  EXPECT_THAT(parse_device_list(gcu_test_topology(), " 1 , 0 "), ElementsAre(0u, 1u));
  EXPECT_THAT(parse_device_list(gcu_test_topology(), "1"), ElementsAre(1u));
}

TEST(DeviceList, Errors) {
  EXPECT_EQ(list_error("0,2"),
            "--devices \"0,2\" at '2' (column 3): no such device; devices are 0 ~ 1");
  EXPECT_THAT(list_error(""), HasSubstr("no devices; expected device numbers (0 ~ 1)"));
  EXPECT_THAT(list_error("  "), HasSubstr("no devices"));
  EXPECT_THAT(list_error("0,,1"), HasSubstr("(column 3): empty entry"));
  EXPECT_THAT(list_error("0,"), HasSubstr("empty entry"));
  EXPECT_THAT(list_error("a"), HasSubstr("'a' (column 1): not a device number"));
  EXPECT_THAT(list_error("-1"), HasSubstr("not a device number"));
  EXPECT_THAT(list_error("+1"), HasSubstr("not a device number"));
  EXPECT_THAT(list_error("1.0"), HasSubstr("not a device number"));
  EXPECT_THAT(list_error("0 1"), HasSubstr("not a device number"));
  EXPECT_THAT(list_error("99999999999999999999"), HasSubstr("no such device"));
  EXPECT_THAT(list_error("0,1,0"), HasSubstr("'0' (column 5): device 0 is listed twice"));
}

TEST(DeviceList, RestrictsAWildcardFilterToTheListedDevices) {
  const Selection s = restrict("*/*/*/SIP Busy", {1});
  EXPECT_EQ(s.items.size(), 26u);
  for (const prof_gcu_item &i : s.items)
    EXPECT_EQ(i.device, 1u);
  const Selection all = restrict("all", {0});
  EXPECT_EQ(all.items.size(), 160u);
  EXPECT_EQ(all.apis.size(), 6u);
  EXPECT_EQ(restrict("all", {1}, ItemKind::Event).items.size(), 96u);
}

TEST(DeviceList, AgreeingListsKeepTheSelection) {
  EXPECT_EQ(restrict("0/*/sip/*", {0}),
            parse_filter(gcu_test_topology(), ItemKind::Activity, "0/*/sip/*"));
  EXPECT_EQ(restrict("0/cluster1/sdma/*|1/cluster2/cdma/*", {0, 1}).items.size(), 20u);
  // A rule naming every device covers every listed device.
  EXPECT_EQ(restrict("0/*/sip/*|*/general/*", {0, 1}).items.size(), 24u + 6u);
  const Selection api = restrict("Api Trace/RUNTIME/*|*/general/*", {0});
  EXPECT_EQ(api.items.size(), 3u);
  EXPECT_EQ(api.apis.size(), 6u);
}

TEST(DeviceList, RuleNamingAnUnlistedDevice) {
  EXPECT_EQ(restrict_error("0/cluster1/sdma/*|1/cluster2/cdma/*", {0}),
            "--devices \"0\" and --enable-activities \"0/cluster1/sdma/*|1/cluster2/cdma/*\" "
            "disagree: rule '1/cluster2/cdma/*' names device 1, which --devices leaves out; name "
            "the same devices in both, or '*' as the filter's device");
}

TEST(DeviceList, ListedDeviceNoRuleCovers) {
  EXPECT_THAT(
      restrict_error("0/*/sip/*", {0, 1}),
      AllOf(HasSubstr("--devices \"0,1\" and --enable-activities \"0/*/sip/*\" disagree"),
            HasSubstr("--devices names device 1, which no rule of --enable-activities covers")));
  EXPECT_THAT(
      restrict_error("0/*/sippmc/*", {1}, ItemKind::Event),
      AllOf(HasSubstr("--enable-events"), HasSubstr("names device 0, which --devices leaves out")));
  EXPECT_THAT(restrict_error("Api Trace/RUNTIME/*", {0}),
              HasSubstr("--devices names device 0, which no rule of --enable-activities covers"));
}

TEST(DeviceList, BadFilterOrDeviceStillFails) {
  EXPECT_THAT(restrict_error("0/cluster9/*/*", {0}), HasSubstr("Cluster has 0 ~ 3"));
  const Selection some = parse_filter(gcu_test_topology(), ItemKind::Activity, "all");
  EXPECT_THROW(restrict_to_devices(gcu_test_topology(), ItemKind::Activity, "all", some, {4},
                                   "--enable-activities"),
               SelectionError);
}

} // namespace
} // namespace prof::activity
