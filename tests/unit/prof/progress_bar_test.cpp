#include "tools/prof/progress_bar.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <poll.h>
#include <pty.h>
#include <regex>
#include <sstream>
#include <termios.h>
#include <unistd.h>

TEST(ProgressBar, PrintsTopsprofsLineOnceWhenNotATerminal) {
  const auto log =
      std::filesystem::temp_directory_path() / ("prof-progress-" + std::to_string(getpid()));
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
  EXPECT_TRUE(std::regex_match(text.str(),
                               std::regex(R"(process profile data \[={41}\] 100% \d+\.\d{3}s\n)")))
      << text.str();
  std::filesystem::remove(log);
}

TEST(Console, PrefixesLinesWithThePidAndHonoursQuiet) {
  const auto log =
      std::filesystem::temp_directory_path() / ("prof-console-" + std::to_string(getpid()));
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

namespace {
// A pseudo-terminal in raw mode: what prof writes to the terminal side is
// read back unchanged from the other.
struct Terminal {
  int reader = -1;
  std::FILE *writer = nullptr;
  Terminal() {
    int side = -1;
    if (openpty(&reader, &side, nullptr, nullptr, nullptr) != 0) return;
    termios mode{};
    tcgetattr(side, &mode);
    cfmakeraw(&mode);
    tcsetattr(side, TCSANOW, &mode);
    writer = fdopen(side, "w");
  }
  ~Terminal() {
    if (writer) std::fclose(writer);
    if (reader >= 0) close(reader);
  }
  std::string written() const {
    std::string text;
    char buffer[4096];
    pollfd ready{reader, POLLIN, 0};
    while (poll(&ready, 1, 0) > 0) {
      const ssize_t n = read(reader, buffer, sizeof buffer);
      if (n <= 0) break;
      text.append(buffer, static_cast<size_t>(n));
    }
    return text;
  }
};
} // namespace

TEST(ProgressBar, ItsLineIsEndedBeforeAnotherLineOrAWarning) {
  Terminal terminal;
  ASSERT_NE(terminal.writer, nullptr);
  prof::core::Console console(terminal.writer);
  ASSERT_TRUE(console.is_terminal());
  prof::tool::ProgressBar bar(console, "process profile data");
  bar.update(0.1);
  console.line("Generated: /tmp/report1.profrep");
  console.line("next");
  const std::string text = terminal.written();
  EXPECT_TRUE(
      std::regex_match(text, std::regex("\rprocess profile data \\[=+ +\\]  10% \\d+\\.\\d{3}s\n"
                                        "Generated: /tmp/report1.profrep\nnext\n")))
      << text;

  prof::tool::ProgressBar again(console, "process profile data");
  again.update(0.5);
  console.warning("the shared catalog was full");
  EXPECT_EQ(terminal.written().back(), '\n') << "the bar's line ends before stderr is written";
}
