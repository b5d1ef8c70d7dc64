// When prof itself dies mid-capture, the application runs on to its end
// and the report keeps what reached it, readable as a cut capture.
#include "core/report/report_reader.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

TEST(ProfKilled, ApplicationRunsOnAndTheReportKeepsWhatWasWritten) {
  const fs::path dir = fs::temp_directory_path() / ("prof-killed-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path report = dir / "cut.profrep";
  const fs::path marker = dir / "app-finished";
  const std::string prof = (fs::path(PROF_BUILD_DIR) / "bin" / "prof").string();
  const std::string script = "sleep 5; touch '" + marker.string() + "'";

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execl(prof.c_str(), prof.c_str(), "--cpu-utilization", "--memory-utilization",
          "--export-profile", report.c_str(), "sh", "-c", script.c_str(), nullptr);
    _exit(127);
  }
  // Killed once drained events reached the file (they are flushed at least
  // every 500 ms), however long a loaded machine takes to get there.
  const auto written = [&report] {
    prof::report::ReportReader partial;
    return partial.open(report.string()) && partial.event_count() > 10;
  };
  for (int i = 0; i < 40 && !written(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_FALSE(fs::exists(marker)) << "the application should still be running";

  // The application is not harmed: it finishes on its own.
  for (int i = 0; i < 100 && !fs::exists(marker); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(fs::exists(marker));

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string())) << reader.problems().back();
  EXPECT_FALSE(reader.footer().has_value());
  EXPECT_FALSE(reader.complete());
  EXPECT_GT(reader.event_count(), 10u);
  EXPECT_GT(reader.tracks().size(), 3u);
  fs::remove_all(dir);
}
