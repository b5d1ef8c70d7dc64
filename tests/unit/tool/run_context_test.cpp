#include "tools/prof/run_context.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

TEST(OutputPath, ExistingFileNeedsForceOverwrite) {
  const fs::path file = fs::temp_directory_path() / ("prof-out-" + std::to_string(getpid()));
  std::ofstream(file) << "keep";
  std::string error;
  EXPECT_FALSE(prof::tool::output_path_allowed(file.string(), false, &error));
  EXPECT_EQ(error, "output file '" + file.string() + "' already exists (use --force-overwrite)");
  EXPECT_TRUE(prof::tool::output_path_allowed(file.string(), true, &error));
  fs::remove(file);
  EXPECT_TRUE(prof::tool::output_path_allowed(file.string(), false, &error));
}

TEST(OutputPath, FolderMustExistAndTargetMustNotBeOne) {
  std::string error;
  EXPECT_FALSE(prof::tool::output_path_allowed("/no/such/folder/x.profrep", false, &error));
  EXPECT_EQ(error, "cannot write '/no/such/folder/x.profrep': folder '/no/such/folder' does not exist");
  EXPECT_FALSE(prof::tool::output_path_allowed("/tmp", true, &error));
  EXPECT_EQ(error, "output file '/tmp' is a directory");
}
