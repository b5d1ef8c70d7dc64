#include "tools/prof/capture/plugin_listing.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;

TEST(PluginListing, ListsPluginsThenRefusals) {
  const fs::path fixtures = PROF_FIXTURE_DIR;
  prof::core::PluginRegistry registry;
  registry.load(fixtures / "libprof-good.so");
  registry.load(fixtures / "libprof-wrong-major.so");
  const std::string text = prof::tool::plugin_list_text(registry);
  // The ABI column is as wide as "1.10" once the minor version has two digits.
  const std::string abi = "1." + std::to_string(PROF_ABI_MINOR);
  const std::string abi_header = "ABI" + std::string(abi.size() > 3 ? abi.size() - 3 : 0, ' ');
  const std::string expected =
      "Plugins:\n"
      "  NAME  KIND    SCOPE   VERSION  " + abi_header + "  PATH\n"
      "  good  source  system  1.0.0    " + abi + "  " +
      (fixtures / "libprof-good.so").string() + "\n\nDescriptions:\n"
      "  good  a loader test fixture (fixture vendor)\n\nRefused:\n  " +
      (fixtures / "libprof-wrong-major.so").string() + ": built for plugin ABI 2." +
      std::to_string(PROF_ABI_MINOR) + ", this prof supports 1.0 to 1." +
      std::to_string(PROF_ABI_MINOR) + "\n";
  EXPECT_EQ(text, expected);
}

TEST(PluginListing, HelpShowsEveryOption) {
  prof::core::PluginRegistry registry;
  registry.load(fs::path(PROF_FIXTURE_DIR) / "libprof-good.so");
  const std::string text = prof::tool::plugin_help_text(*registry.find("good"));
  EXPECT_NE(text.find("Plugin good 1.0.0 (source, system scope): a loader test fixture\n"),
            std::string::npos);
  EXPECT_NE(text.find("  OPTION  TYPE  DEFAULT  ALLOWED    HELP\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  rate    int   10       1..100     samples per second\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("  mode    enum  fast     fast,slow  how to sample\n"), std::string::npos)
      << text;
}

TEST(PluginListing, SaysWhenNothingIsInstalled) {
  prof::core::PluginRegistry registry;
  EXPECT_EQ(prof::tool::plugin_list_text(registry), "No plugins found.\n");
}
