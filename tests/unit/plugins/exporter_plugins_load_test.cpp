// The built exporter plugins as the host sees them: dlopen() the .so files,
// read the descriptors, and drive the vtables with a fake host.
#include "tests/support/exporter_plugin_checks.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof {
namespace {

using prof::testing::expect_common_fields;
using prof::testing::expect_complete_exporter_vtable;
using prof::testing::export_through_vtable;
using prof::testing::FakeExportHost;
using prof::testing::find_option;
using prof::testing::LoadedPlugin;

/// The lines an exporter printed after one export through its vtable.
std::vector<std::string> printed_by(const prof_plugin_descriptor &d, FakeExportHost &fake,
                                    const std::vector<prof_event> &events) {
  expect_complete_exporter_vtable(*d.exporter);
  EXPECT_TRUE(export_through_vtable(*d.exporter, fake, events));
  return fake.printed();
}

TEST(ExporterPluginLoadTest, SummaryExporter) {
  LoadedPlugin plugin("summary");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "summary", PROF_KIND_EXPORTER);
  const prof_option_desc *mode = find_option(d, "mode");
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->type, PROF_OPTION_ENUM);
  EXPECT_STREQ(mode->default_value, "summary");
  EXPECT_STREQ(mode->choices, "summary,gcu,per-gcu,api");

  FakeExportHost fake;
  fake.set_option("mode", "summary");
  const prof_track_id engine = fake.add_track(
      PROF_TRACK_ENGINE, "SIP 0", fake.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0));
  const auto printed = printed_by(
      d, fake, {fake.slice(engine, "dot_dtu", 0, 1220000), fake.slice(engine, "dot_dtu", 5, 0)});
  const std::vector<std::string> expected{
      "======== Profiling result:",
      "          Type  Time(%)    Time  Calls       Avg     Min     Max  Name",
      "GCU activites:  100.00%  1.22ms      2  610.00us  0.00ns  1.22ms  dot_dtu"};
  EXPECT_EQ(printed, expected);
}

TEST(ExporterPluginLoadTest, TraceExporter) {
  LoadedPlugin plugin("trace");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "trace", PROF_KIND_EXPORTER);
  const prof_option_desc *scope = find_option(d, "scope");
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(scope->type, PROF_OPTION_ENUM);
  EXPECT_STREQ(scope->default_value, "all");
  EXPECT_STREQ(scope->choices, "all,gcu");

  FakeExportHost fake;
  fake.set_option("scope", "gcu");
  const prof_track_id engine = fake.add_track(
      PROF_TRACK_ENGINE, "SIP 0", fake.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0));
  const auto printed =
      printed_by(d, fake, {fake.slice(engine, "b", 2000, 10), fake.slice(engine, "a", 1000, 20)});
  const std::vector<std::string> expected{"======== Profiling result:", " Start  Duration  Name",
                                          "0.00ns   20.00ns  a", "1.00us   10.00ns  b"};
  EXPECT_EQ(printed, expected);
}

} // namespace
} // namespace prof
