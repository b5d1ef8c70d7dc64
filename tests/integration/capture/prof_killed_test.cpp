// When prof itself is signalled mid-capture, the application is never the
// worse for it. SIGKILL: the application runs on to its end with its own
// exit code, and the report keeps what reached it, readable as a cut capture
// whose statistics say where it stops. SIGINT (Ctrl-C sent to prof alone):
// prof stays, the application runs on, the report is whole. SIGTERM: prof
// passes it to the application, as a launcher does, and writes the whole
// report with the signal that ended it.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using ::testing::HasSubstr;

namespace {

using prof::e2e::kProf;

class ProfSignalled : public ::testing::Test {
protected:
  void SetUp() override {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  /// Starts prof on a shell that sleeps `seconds`, then leaves its exit code
  /// (3) in `status_`.
  pid_t start_prof(double seconds) {
    const std::string script =
        "sleep " + std::to_string(seconds) + "; echo 3 > '" + status_.string() + "'; exit 3";
    const pid_t pid = fork();
    if (pid == 0) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      execl(kProf.c_str(), kProf.c_str(), "--cpu-utilization", "--memory-utilization",
            "--export-profile", report_.c_str(), "sh", "-c", script.c_str(), nullptr);
      _exit(127);
    }
    return pid;
  }
  /// Waits until drained events reached the file (flushed at least every
  /// 500 ms), however long a loaded machine takes to get there.
  void wait_for_events() const {
    const auto written = [this] {
      prof::report::ReportReader partial;
      return partial.open(report_.string()) && partial.event_count() > 10;
    };
    for (int i = 0; i < 80 && !written(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  /// The application's exit code once it wrote it; -1 when it never did.
  int application_status() const {
    for (int i = 0; i < 150 && !fs::exists(status_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream in(status_);
    int code = -1;
    in >> code;
    return code;
  }

  const fs::path dir_ = fs::temp_directory_path() / ("prof-signalled-" + std::to_string(getpid()));
  const fs::path report_ = dir_ / "capture.profrep";
  const fs::path status_ = dir_ / "app-status";
};

} // namespace

TEST_F(ProfSignalled, KilledTheApplicationRunsOnAndTheReportKeepsWhatWasWritten) {
  const pid_t pid = start_prof(5);
  ASSERT_GT(pid, 0);
  wait_for_events();
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_FALSE(fs::exists(status_)) << "the application should still be running";

  // The application is not harmed: it finishes on its own, with its code.
  EXPECT_EQ(application_status(), 3);

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_.string())) << reader.problems().back();
  EXPECT_FALSE(reader.footer().has_value());
  EXPECT_FALSE(reader.complete());
  EXPECT_GT(reader.event_count(), 10u);
  EXPECT_GT(reader.tracks().size(), 3u);

  // Statistics cover what was read, and say where the report stops.
  const auto stats = prof::e2e::run_process({kProf, "stats", report_.string()});
  EXPECT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(stats.err, HasSubstr("is cut at byte"));
  EXPECT_THAT(stats.err, HasSubstr("read up to the last whole chunk, which ends at byte"));
}

TEST_F(ProfSignalled, InterruptedProfStaysAndTheApplicationRunsToItsEnd) {
  const pid_t pid = start_prof(1.5);
  ASSERT_GT(pid, 0);
  wait_for_events();
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << "prof ends with the application's exit code";
  EXPECT_EQ(application_status(), 3);

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_.string()));
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_EQ(reader.footer()->exit_status, 3);
  EXPECT_FALSE(reader.footer()->killed_by_signal);
}

TEST_F(ProfSignalled, TerminatedProfPassesItOnAndWritesTheWholeReport) {
  const pid_t pid = start_prof(4);
  ASSERT_GT(pid, 0);
  wait_for_events();
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_FALSE(fs::exists(status_)) << "the application got the signal";

  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_.string()));
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_TRUE(reader.footer()->killed_by_signal);
  EXPECT_EQ(reader.footer()->signal, SIGTERM);
  EXPECT_GT(reader.event_count(), 10u);
}
