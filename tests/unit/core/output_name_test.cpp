#include "core/plugin_host/output_name.hpp"

#include "core/plugin_host/input_error.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace prof::core {
namespace {

const OutputNameFacts kFacts{4242, "node-7", 1764412800};

TEST(OutputName, MacrosExpand) {
  setenv("PROF_TEST_RANK", "3", 1);
  EXPECT_EQ(expand_output_name("run-%p-%h.profrep", kFacts, ".profrep"), "run-4242-node-7.profrep");
  EXPECT_EQ(expand_output_name("rank%q{PROF_TEST_RANK}", kFacts, ".profrep"), "rank3");
  EXPECT_EQ(expand_output_name("100%%-%p", kFacts, ".profrep"), "100%-4242");
  const std::string t = expand_output_name("%t", kFacts, ".profrep");
  EXPECT_EQ(t.size(), 15u) << t; // YYYYmmdd-HHMMSS
  EXPECT_EQ(t[8], '-');
  EXPECT_EQ(expand_output_name("plain", kFacts, ".profrep"), "plain");
}

TEST(OutputName, GivenVariablesComeBeforeTheEnvironment) {
  setenv("PROF_TEST_RANK", "3", 1);
  OutputNameFacts facts = kFacts;
  facts.variables = {{"PROF_TEST_RANK", "5"}, {"PROF_TEST_UNSET", ""}};
  EXPECT_EQ(expand_output_name("r%q{PROF_TEST_RANK}", facts, ".profrep"), "r5");
  EXPECT_EQ(expand_output_name("r%q{PROF_TEST_UNSET}", facts, ".profrep"), "r");
}

// Around a launcher, prof has no rank of its own: the one the name asks for
// is each rank's, and the report is split.
TEST(OutputName, ALauncherRankUnsetHereIsSplitOn) {
  for (const char *variable : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    unsetenv(variable);
  EXPECT_EQ(rank_variable_to_split("r%q{RANK}"), "RANK");
  EXPECT_EQ(rank_variable_to_split("out/%h-%q{OMPI_COMM_WORLD_RANK}"), "OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(rank_variable_to_split("r%q{SLURM_PROCID}.profrep"), "SLURM_PROCID");
  EXPECT_EQ(rank_variable_to_split("r%q{HOME}"), "");
  EXPECT_EQ(rank_variable_to_split("r%p"), "");
  setenv("RANK", "2", 1); // inside the launcher: each rank's prof names its own
  EXPECT_EQ(rank_variable_to_split("r%q{RANK}"), "");
  unsetenv("RANK");
}

TEST(OutputName, IndexIsTheFirstFreeName) {
  const testing::ScratchDir scratch("prof-name");
  const std::string dir = scratch.path();
  EXPECT_EQ(expand_output_name(dir + "/r%i", kFacts, ".profrep"), dir + "/r1");
  std::ofstream(dir + "/r1.profrep") << "x";
  std::ofstream(dir + "/r2.profrep") << "x";
  EXPECT_EQ(expand_output_name(dir + "/r%i", kFacts, ".profrep"), dir + "/r3");
  EXPECT_EQ(expand_output_name(dir + "/r%i.profrep", kFacts, ".profrep"), dir + "/r3.profrep");
}

TEST(OutputName, BadMacrosNameThePattern) {
  unsetenv("PROF_TEST_UNSET");
  for (const char *bad : {"r%x", "r%", "r%q", "r%qRANK", "r%q{PROF_TEST_UNSET}"}) {
    try {
      expand_output_name(bad, kFacts, ".profrep");
      ADD_FAILURE() << bad;
    } catch (const InputError &e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(OutputPath, ExistingFileNeedsForceOverwrite) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("prof-out-" + std::to_string(getpid()));
  std::ofstream(file) << "keep";
  std::string error;
  EXPECT_FALSE(output_path_allowed(file.string(), false, &error));
  EXPECT_EQ(error, "output file '" + file.string() + "' already exists (use --force-overwrite)");
  EXPECT_TRUE(output_path_allowed(file.string(), true, &error));
  std::filesystem::remove(file);
  EXPECT_TRUE(output_path_allowed(file.string(), false, &error));
}

TEST(OutputPath, FolderMustExistAndTargetMustNotBeOne) {
  std::string error;
  EXPECT_FALSE(output_path_allowed("/no/such/folder/x.profrep", false, &error));
  EXPECT_EQ(error,
            "cannot write '/no/such/folder/x.profrep': folder '/no/such/folder' does not exist");
  EXPECT_FALSE(output_path_allowed("/tmp", true, &error));
  EXPECT_EQ(error, "output file '/tmp' is a directory");
}

} // namespace
} // namespace prof::core
