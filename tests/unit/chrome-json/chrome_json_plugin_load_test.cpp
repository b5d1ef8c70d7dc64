// The built libprof-chrome-json.so, opened with dlopen() as the host does:
// its descriptor, option table, and one export through its vtable.
#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace prof::testing {
namespace {

TEST(ChromeJsonPluginLoad, DescriptorAndOptions) {
  LoadedPlugin plugin("chrome-json");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "chrome-json", PROF_KIND_EXPORTER);
  EXPECT_NE(std::string(d.description).find("Chrome Trace Event Format"), std::string::npos);
  EXPECT_EQ(d.option_count, 2u);
  expect_path_and_overwrite_options(d);
  expect_complete_exporter_vtable(*d.exporter);
}

TEST(ChromeJsonPluginLoad, ExportsThroughTheVtable) {
  LoadedPlugin plugin("chrome-json");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_exporter_vtable &vt = *plugin.descriptor()->exporter;
  ScratchDir dir;
  const std::string out = dir.file("load.json");
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  host.set_option("path", out);
  ASSERT_TRUE(export_through_vtable(
      vt, host, {host.slice(queue, "work", 10, 5), host.instant(queue, "mark", 12)}));

  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find(R"({"ph":"X","pid":2000001,"tid":0,"ts":0.000,"dur":0.005,"name":"work"})"),
            std::string::npos)
      << text;
  expect_begin_requires_path(vt, "chrome-json");
}

} // namespace
} // namespace prof::testing
