// ExporterOutput through a fake export host: the required path, the name a
// folder receives (the target's pid, else this process's), refusal and
// overwrite, the error texts users read, and nothing left on failure.
#include <prof/output/exporter_output.hpp>

#include "tests/support/file_text.hpp"
#include "tests/support/scratch_dir.hpp"
#include <prof/testing/fake_export_host.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace prof::output {
namespace {

using prof::testing::FakeExportHost;
using Lines = std::vector<std::string>;

constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr, "output file or folder"},
    kOverwriteOption,
};

class ExporterOutputTest : public ::testing::Test {
protected:
  ExporterOutput output() { return ExporterOutput(fake_.host(), "demo", ".demo"); }

  FakeExportHost fake_;
  prof::testing::ScratchDir dir_;
};

TEST_F(ExporterOutputTest, WritesTheFileThePathNames) {
  const std::string path = dir_.file("out.demo");
  fake_.set_option("path", path);
  ExporterOutput out = output();
  ASSERT_TRUE(out.open(kOptions));
  EXPECT_FALSE(out.failed());
  EXPECT_EQ(dir_.file_names().size(), 1u) << "only the temporary file until commit";
  std::string text = "small";
  ASSERT_TRUE(out.write_if_full(text));
  EXPECT_EQ(text, "small") << "less than a block stays in the buffer";
  ASSERT_TRUE(out.write(text));
  EXPECT_TRUE(text.empty());
  ASSERT_TRUE(out.commit());
  out.log_written(3);
  EXPECT_EQ(prof::testing::file_text(path), "small");
  EXPECT_EQ(dir_.file_names(), Lines{"out.demo"});
  EXPECT_TRUE(fake_.errors().empty());
}

TEST_F(ExporterOutputTest, PathIsRequired) {
  ExporterOutput out = output();
  EXPECT_FALSE(out.open(kOptions));
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(fake_.errors(), Lines{"demo: option path is required"});
  EXPECT_FALSE(OutputOptions::read(fake_.host(), kOptions, "other"));
  EXPECT_EQ(fake_.errors().back(), "other: option path is required");
}

TEST_F(ExporterOutputTest, AFolderReceivesTheTargetsPidElseOurs) {
  fake_.set_target(4242, "app");
  fake_.set_option("path", dir_.path() + "/");
  {
    ExporterOutput out = output();
    ASSERT_TRUE(out.open(kOptions));
    ASSERT_TRUE(out.commit());
  }
  fake_.set_target(0, "");
  fake_.set_option("path", dir_.path()); // an existing folder, no '/'
  {
    ExporterOutput out = output();
    ASSERT_TRUE(out.open(kOptions));
    ASSERT_TRUE(out.commit());
  }
  const std::string ours = "prof-" + std::to_string(::getpid()) + ".demo";
  Lines expected{"prof-4242.demo", ours};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(dir_.file_names(), expected);
  EXPECT_EQ(output_pid(fake_.host().session()), ::getpid());
}

TEST_F(ExporterOutputTest, RefusesAnExistingFileUnlessOverwrite) {
  const std::string path = dir_.file("taken.demo");
  std::ofstream(path) << "keep me";
  fake_.set_option("path", path);
  {
    ExporterOutput out = output();
    EXPECT_FALSE(out.open(kOptions));
    EXPECT_FALSE(out.commit()) << "nothing to commit after a failed open";
  }
  EXPECT_EQ(fake_.errors(), Lines{"demo: '" + path + "' already exists"});
  EXPECT_EQ(prof::testing::file_text(path), "keep me");
  fake_.set_option("overwrite", "true");
  ExporterOutput out = output();
  ASSERT_TRUE(out.open(kOptions));
  std::string text = "new";
  ASSERT_TRUE(out.write(text));
  ASSERT_TRUE(out.commit());
  EXPECT_EQ(prof::testing::file_text(path), "new");
}

TEST_F(ExporterOutputTest, TheFirstFailureIsLoggedOnceAndLeavesNothing) {
  fake_.set_option("path", dir_.file("out.demo"));
  ExporterOutput out = output();
  ASSERT_TRUE(out.open(kOptions));
  EXPECT_FALSE(out.fail("demo: the source went away"));
  EXPECT_TRUE(out.failed());
  EXPECT_FALSE(out.fail("demo: a consequence"));
  std::string text = "late";
  EXPECT_FALSE(out.write(text));
  EXPECT_FALSE(out.commit());
  EXPECT_EQ(fake_.errors(), Lines{"demo: the source went away"});
  EXPECT_TRUE(dir_.file_names().empty());
}

TEST_F(ExporterOutputTest, AnUnwritableFolderIsAnError) {
  std::ofstream(dir_.file("plain-file")) << "x";
  fake_.set_option("path", dir_.file("plain-file") + "/sub/out.demo");
  ExporterOutput out = output();
  EXPECT_FALSE(out.open(kOptions));
  EXPECT_EQ(fake_.errors(), Lines{"demo: cannot create folder '" + dir_.file("plain-file") +
                                  "/sub': Not a directory"});
}

} // namespace
} // namespace prof::output
