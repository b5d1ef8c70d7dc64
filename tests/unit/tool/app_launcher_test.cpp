#include "tools/prof/app_launcher.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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
