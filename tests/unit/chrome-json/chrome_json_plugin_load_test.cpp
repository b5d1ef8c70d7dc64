// The built libprof-chrome-json.so, opened with dlopen() as the host does:
// its descriptor, option table, and one export through its vtable.
#include "tests/support/fake_export_host.hpp"
#include "../plugins/loaded_plugin.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace prof::testing {
namespace {

TEST(ChromeJsonPluginLoad, DescriptorAndOptions) {
  LoadedPlugin plugin("chrome-json");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "chrome-json", PROF_KIND_EXPORTER);
  EXPECT_NE(std::string(d.description).find("Chrome Trace Event Format"), std::string::npos);
  EXPECT_EQ(d.option_count, 2u);

  const prof_option_desc *path = find_option(d, "path");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(path->type, PROF_OPTION_STRING);
  EXPECT_EQ(path->default_value, nullptr); // required: no default
  const prof_option_desc *overwrite = find_option(d, "overwrite");
  ASSERT_NE(overwrite, nullptr);
  EXPECT_EQ(overwrite->type, PROF_OPTION_BOOL);
  EXPECT_STREQ(overwrite->default_value, "false");

  const prof_exporter_vtable &vt = *d.exporter;
  EXPECT_EQ(vt.struct_size, sizeof(prof_exporter_vtable));
  EXPECT_NE(vt.create, nullptr);
  EXPECT_NE(vt.destroy, nullptr);
  EXPECT_NE(vt.begin, nullptr);
  EXPECT_NE(vt.consume, nullptr);
  EXPECT_NE(vt.end, nullptr);
}

TEST(ChromeJsonPluginLoad, ExportsThroughTheVtable) {
  LoadedPlugin plugin("chrome-json");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_exporter_vtable &vt = *plugin.descriptor()->exporter;
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("prof-chrome-json-load-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(out);

  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  host.set_option("path", out.string());
  const prof_event events[] = {host.slice(queue, "work", 10, 5), host.instant(queue, "mark", 12)};
  ExportHost api = host.host();
  void *instance = vt.create(api.api(), api.context());
  ASSERT_NE(instance, nullptr);
  EXPECT_EQ(vt.begin(instance), PROF_OK);
  EXPECT_EQ(vt.consume(instance, events, 2), PROF_OK);
  EXPECT_EQ(vt.end(instance), PROF_OK);
  vt.destroy(instance);

  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find(R"({"ph":"X","pid":2000001,"tid":0,"ts":0.000,"dur":0.005,"name":"work"})"),
            std::string::npos)
      << text;
  std::filesystem::remove(out);

  FakeExportHost bare;
  ExportHost bare_api = bare.host();
  void *failing = vt.create(bare_api.api(), bare_api.context());
  ASSERT_NE(failing, nullptr);
  EXPECT_EQ(vt.begin(failing), PROF_ERROR);
  EXPECT_EQ(bare.errors(), (std::vector<std::string>{"chrome-json: option path is required"}));
  vt.destroy(failing);
}

} // namespace
} // namespace prof::testing
