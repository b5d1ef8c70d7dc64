// The folded exporter: the built .so loaded as the host loads it and fed
// sample events by a fake export host, and its frame cleaning.
#include "folded_stacks.hpp"

#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace prof::folded {
namespace {

using prof::testing::FakeExportHost;
using prof::testing::LoadedPlugin;

class FoldedExporterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(plugin_.descriptor(), nullptr);
    ASSERT_NE(plugin_.descriptor()->exporter, nullptr);
  }
  /// One export through the plugin's vtable; whether every call succeeded.
  bool run(FakeExportHost &host, const std::vector<prof_event> &events) {
    return prof::testing::export_through_vtable(*plugin_.descriptor()->exporter, host, events);
  }

  LoadedPlugin plugin_{"folded"};
  prof::testing::ScratchDir dir_;
};

TEST_F(FoldedExporterTest, Descriptor) {
  const prof_plugin_descriptor &d = *plugin_.descriptor();
  prof::testing::expect_common_fields(d, "folded", PROF_KIND_EXPORTER);
  prof::testing::expect_path_and_overwrite_options(d);
  prof::testing::expect_complete_exporter_vtable(*d.exporter);
  prof::testing::expect_begin_requires_path(*d.exporter, "folded");
}

TEST_F(FoldedExporterTest, WritesSortedRootFirstStacksWithThreadNames) {
  const std::string path = dir_.file("cpu.folded");
  FakeExportHost host;
  host.set_option("path", path);
  const prof_track_id worker = host.add_track(PROF_TRACK_THREAD, "worker");
  const prof_track_id io = host.add_track(PROF_TRACK_THREAD, "io");
  const prof_stack_id deep = host.add_stack({"leaf", "mid;dle", "main"});
  const prof_stack_id shallow = host.add_stack({"main"});
  ASSERT_TRUE(run(host, {host.sample(worker, 1, deep), host.sample(worker, 2, deep),
                         host.slice(worker, "other", 3, 1), host.sample(io, 4, shallow),
                         host.sample(worker, 5, shallow)}));
  EXPECT_EQ(prof::testing::file_text(path), "io;main 1\n"
                                            "worker;main 1\n"
                                            "worker;main;mid:dle;leaf 2\n");
  EXPECT_EQ(host.printed(),
            std::vector<std::string>{"folded: 4 samples in 3 stacks written to " + path});
}

TEST_F(FoldedExporterTest, RefusesAnExistingFileUnlessOverwrite) {
  const std::string path = dir_.file("taken.folded");
  std::ofstream(path) << "keep me\n";
  FakeExportHost refused;
  refused.set_option("path", path);
  EXPECT_FALSE(run(refused, {}));
  EXPECT_EQ(refused.errors(), std::vector<std::string>{"folded: '" + path + "' already exists"});
  EXPECT_EQ(prof::testing::file_text(path), "keep me\n");
  EXPECT_EQ(dir_.file_names(), std::vector<std::string>{"taken.folded"});

  FakeExportHost again;
  again.set_option("path", path);
  again.set_option("overwrite", "true");
  again.set_option("thread-frame", "false");
  const prof_track_id t = again.add_track(PROF_TRACK_THREAD, "t");
  ASSERT_TRUE(run(again, {again.sample(t, 1, again.add_stack({"b", "a"}))}));
  EXPECT_EQ(prof::testing::file_text(path), "a;b 1\n");
}

TEST_F(FoldedExporterTest, AFolderReceivesProfPidFolded) {
  FakeExportHost host;
  host.set_target(4242, "app");
  host.set_option("path", dir_.path() + "/");
  ASSERT_TRUE(run(host, {}));
  EXPECT_EQ(dir_.file_names(), std::vector<std::string>{"prof-4242.folded"});
}

TEST(FoldedStacks, CleanFrame) {
  EXPECT_EQ(clean_frame("a;b\nc"), "a:b c");
  EXPECT_EQ(clean_frame(""), "[unknown]");
}

} // namespace
} // namespace prof::folded
