// The built libprof-perfetto.so, opened with dlopen() as the host does: its
// descriptor, option table, and one export through its vtable.
#include "tests/support/decoded_trace.hpp"
#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <string>

namespace prof::testing {
namespace {

TEST(PerfettoPluginLoad, DescriptorAndOptions) {
  LoadedPlugin plugin("perfetto");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  expect_common_fields(d, "perfetto", PROF_KIND_EXPORTER);
  EXPECT_NE(std::string(d.description).find("Perfetto"), std::string::npos);
  expect_path_and_overwrite_options(d);
  expect_complete_exporter_vtable(*d.exporter);
}

TEST(PerfettoPluginLoad, ExportsThroughTheVtable) {
  LoadedPlugin plugin("perfetto");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_exporter_vtable &vt = *plugin.descriptor()->exporter;
  ScratchDir dir;
  const std::string out = dir.file("load.pftrace");
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  host.set_option("path", out);
  ASSERT_TRUE(export_through_vtable(
      vt, host, {host.slice(queue, "work", 10, 5), host.instant(queue, "mark", 12)}));

  const TextNode trace = decode_trace(out);
  // The main sequence's first packet, descriptor, the track sequence's first
  // packet, begin, instant, end.
  EXPECT_EQ(trace.all("packet").size(), 6u);
  expect_begin_requires_path(vt, "perfetto");
}

} // namespace
} // namespace prof::testing
