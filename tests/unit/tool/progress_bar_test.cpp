#include "tools/prof/progress_bar.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

TEST(ProgressBar, PrintsTopsprofsLineOnceWhenNotATerminal) {
  const auto log = std::filesystem::temp_directory_path() /
                   ("prof-progress-" + std::to_string(getpid()));
  {
    prof::core::Console console;
    std::string error;
    ASSERT_TRUE(console.open_log_file(log.string(), &error));
    prof::tool::ProgressBar bar(console, "process profile data");
    bar.update(0.3);
    bar.update(0.7);
    bar.finish();
    bar.finish();
  }
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  EXPECT_TRUE(std::regex_match(
      text.str(), std::regex(R"(process profile data \[={41}\] 100% \d+\.\d{3}s\n)")))
      << text.str();
  std::filesystem::remove(log);
}

TEST(Console, PrefixesLinesWithThePidAndHonoursQuiet) {
  const auto log = std::filesystem::temp_directory_path() /
                   ("prof-console-" + std::to_string(getpid()));
  {
    prof::core::Console console;
    std::string error;
    ASSERT_TRUE(console.open_log_file(log.string(), &error));
    console.line("before");
    console.set_pid(77);
    console.line("after");
    console.set_quiet(true);
    console.line("hidden");
  }
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  EXPECT_EQ(text.str(), "before\n==77== after\n");
  std::filesystem::remove(log);
}
