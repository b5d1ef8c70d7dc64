#include "tools/prof/capture/app_launcher.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <pthread.h>
#include <unistd.h>

using prof::tool::AppLauncher;

TEST(AppLauncher, ResolvesLikeExecvp) {
  EXPECT_EQ(AppLauncher::resolve("sh").rfind('/'), AppLauncher::resolve("sh").size() - 3);
  EXPECT_EQ(AppLauncher::resolve("/bin/sh"), "/bin/sh");
  EXPECT_EQ(AppLauncher::resolve("no-such-program-xyz"), "");
  EXPECT_EQ(AppLauncher::resolve("/tmp"), "");          // a folder
  EXPECT_EQ(AppLauncher::resolve(""), "");
}

TEST(AppLauncher, DoesNotResolveAFileWithoutExecutePermission) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("prof-plain-" + std::to_string(getpid()));
  std::ofstream(file) << "echo hi\n";
  std::filesystem::permissions(file, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_write);
  EXPECT_EQ(AppLauncher::resolve(file.string()), "");
  std::filesystem::remove(file);
}

TEST(AppLauncher, DisplaysTheCommandAsAShellWould) {
  EXPECT_EQ(AppLauncher::display({"python3", "-c", "print('hi there')"}),
            "python3 -c 'print('\\''hi there'\\'')'");
  EXPECT_EQ(AppLauncher::display({"ls", "-l", ""}), "ls -l ''");
}

TEST(AppLauncher, ReportsTheApplicationsExitCode) {
  AppLauncher app;
  ASSERT_TRUE(app.spawn({"sh", "-c", "exit 7"}, true));
  ASSERT_TRUE(app.release());
  auto exit = app.wait_all();
  EXPECT_EQ(exit.code, 7);
  EXPECT_EQ(exit.signal, 0);
}

TEST(AppLauncher, ReportsASignal) {
  AppLauncher app;
  ASSERT_TRUE(app.spawn({"sh", "-c", "kill -SEGV $$"}, true));
  ASSERT_TRUE(app.release());
  auto exit = app.wait_all();
  EXPECT_EQ(exit.signal, SIGSEGV);
  EXPECT_EQ(exit.code, 128 + SIGSEGV);
}

TEST(AppLauncher, HoldsTheApplicationUntilReleased) {
  const auto marker = std::filesystem::temp_directory_path() /
                      ("prof-gate-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  AppLauncher app;
  ASSERT_TRUE(app.spawn({"touch", marker.string()}, true));
  usleep(100000);
  EXPECT_FALSE(std::filesystem::exists(marker));
  ASSERT_TRUE(app.release());
  app.wait_all();
  EXPECT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove(marker);
}

TEST(AppLauncher, WaitsForOrphanedDescendants) {
  const auto marker = std::filesystem::temp_directory_path() /
                      ("prof-orphan-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  AppLauncher app;
  ASSERT_TRUE(app.spawn({"sh", "-c", "(sleep 0.3; touch " + marker.string() + ") & exit 3"}, true));
  ASSERT_TRUE(app.release());
  auto exit = app.wait_all();
  EXPECT_EQ(exit.code, 3);
  EXPECT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove(marker);
}

TEST(AppLauncher, SaysWhenExecFails) {
  const auto script = std::filesystem::temp_directory_path() /
                      ("prof-noexec-" + std::to_string(getpid()));
  std::ofstream(script) << "#!/nonexistent/interpreter\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  AppLauncher app;
  ASSERT_TRUE(app.spawn({script.string()}, true));
  EXPECT_FALSE(app.release());
  EXPECT_EQ(app.error(), "cannot run '" + script.string() + "': No such file or directory");
  app.wait_all();
  std::filesystem::remove(script);
}

TEST(AppLauncher, RunsAScriptWithoutAnInterpreterLineThroughTheShellAsExecvpDoes) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("prof-script-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto script = dir / "plain-script";
  std::ofstream(script) << "exit $(( $1 + 4 ))\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  AppLauncher app;
  ASSERT_TRUE(app.spawn({script.string(), "5"}, true));
  ASSERT_TRUE(app.release());
  EXPECT_EQ(app.wait_all().code, 9);
  std::filesystem::remove_all(dir);
}

// The held process shares prof's memory until it execs: a handler prof
// installed must not run there, nor reach the application; what prof
// ignores and blocks, the application inherits as from a fork.
TEST(AppLauncher, TheApplicationGetsProfsMaskAndIgnoredSignalsButNoHandler) {
  struct sigaction handled {
  }, ignored{}, old_usr1{}, old_usr2{};
  handled.sa_handler = [](int) {};
  ignored.sa_handler = SIG_IGN;
  sigaction(SIGUSR1, &handled, &old_usr1);
  sigaction(SIGUSR2, &ignored, &old_usr2);
  sigset_t blocked, old_mask;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGWINCH);
  pthread_sigmask(SIG_BLOCK, &blocked, &old_mask);
  const auto out =
      std::filesystem::temp_directory_path() / ("prof-signals-" + std::to_string(getpid()));
  AppLauncher app;
  // cp reads its own status (a shell would reset the mask).
  ASSERT_TRUE(app.spawn({"cp", "/proc/self/status", out.string()}, true));
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  sigaction(SIGUSR1, &old_usr1, nullptr);
  sigaction(SIGUSR2, &old_usr2, nullptr);
  ASSERT_TRUE(app.release());
  app.wait_all();
  std::ifstream in(out);
  std::map<std::string, unsigned long long> masks;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("Sig"))
      masks[line.substr(0, 7)] = std::stoull(line.substr(8), nullptr, 16);
  std::filesystem::remove(out);
  const auto bit = [](int signal) { return 1ull << (signal - 1); };
  EXPECT_TRUE(masks["SigBlk:"] & bit(SIGWINCH)) << "the mask prof had when it started the process";
  EXPECT_FALSE(masks["SigBlk:"] & bit(SIGUSR1)) << "blocked only while it was held";
  EXPECT_TRUE(masks["SigIgn:"] & bit(SIGUSR2));
  EXPECT_FALSE(masks["SigIgn:"] & bit(SIGUSR1));
}
