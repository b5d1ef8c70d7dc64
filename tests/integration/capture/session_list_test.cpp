// A running capture is a session other prof processes can list; its socket
// goes when it ends, and sockets of sessions that are gone are cleaned up.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SessionList : public ::testing::Test {
protected:
  std::vector<std::string> with_env(std::vector<std::string> args) const {
    args.insert(args.begin(), {"/usr/bin/env", "XDG_RUNTIME_DIR=" + runtime_.string(), kProf});
    return args;
  }
  /// Starts prof with `args` (with_env'd) in the background, its output
  /// discarded; returns its pid.
  pid_t start_in_background(const std::vector<std::string> &args) const {
    const pid_t pid = fork();
    if (pid == 0) {
      std::vector<char *> argv;
      for (const auto &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
      argv.push_back(nullptr);
      freopen("/dev/null", "w", stdout);
      execv(argv[0], argv.data());
      _exit(127);
    }
    return pid;
  }
  /// Whether session `name`'s socket appeared within two seconds.
  bool wait_for_socket(const std::string &name) const {
    const fs::path socket = runtime_ / "prof" / (name + ".sock");
    for (int i = 0; i < 100 && !fs::exists(socket); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return fs::exists(socket);
  }
  testing::ScratchDir scratch_{"prof-sessions"};
  fs::path runtime_{scratch_.path()};
};

TEST_F(SessionList, ARunningCaptureIsListedUntilItEnds) {
  // The capture runs in the background for a second.
  const std::vector<std::string> args =
      with_env({"--session-new", "train_run-1", "--cpu-utilization", "-o",
                (runtime_ / "r").string(), kWorkload, "--seconds", "4", "--quiet"});
  const pid_t capture = start_in_background(args);
  const fs::path socket = runtime_ / "prof" / "train_run-1.sock";
  ASSERT_TRUE(wait_for_socket("train_run-1"));

  // The socket answers as soon as the session exists; its first window
  // opens on the drain's next round, so on a loaded machine a first listing
  // may still say "waiting". It must say "running" soon after.
  RunResult listed = run_process(with_env({"--session-list"}));
  for (int i = 0; i < 50 && listed.out.find("running") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    listed = run_process(with_env({"--session-list"}));
  }
  ASSERT_EQ(listed.exit_code, 0) << listed.describe();
  const auto lines = split_lines(listed.out);
  ASSERT_EQ(lines.size(), 2u) << listed.out;
  EXPECT_THAT(lines[0], HasSubstr("NAME"));
  EXPECT_THAT(lines[0], HasSubstr("STATE"));
  EXPECT_THAT(lines[1], HasSubstr("train_run-1"));
  EXPECT_THAT(lines[1], HasSubstr("running"));
  EXPECT_THAT(lines[1], HasSubstr("prof-workload --seconds 4"));
  EXPECT_THAT(lines[1], HasSubstr((runtime_ / "r.profrep").string()));
  const RunResult same = run_process(with_env({"sessions", "list"}));
  EXPECT_EQ(same.out, listed.out);

  // A second capture cannot take the name of a running one.
  const RunResult clash =
      run_process(with_env({"--session-new", "train_run-1", "--cpu-utilization", "true"}));
  EXPECT_EQ(clash.exit_code, 2) << clash.describe();
  EXPECT_THAT(clash.err, HasSubstr("train_run-1"));

  int status = 0;
  waitpid(capture, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(fs::exists(socket));
  EXPECT_EQ(run_process(with_env({"sessions", "list"})).out, "no sessions\n");
}

TEST_F(SessionList, SocketsOfSessionsThatAreGoneAreRemoved) {
  fs::create_directory(runtime_ / "prof");
  fs::permissions(runtime_ / "prof", fs::perms::owner_all, fs::perm_options::replace);
  const fs::path ghost = runtime_ / "prof" / "ghost.sock";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, ghost.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
  close(fd); // bound, never answering: its session is gone
  const RunResult listed = run_process(with_env({"--session-list"}));
  EXPECT_EQ(listed.out, "no sessions\n") << listed.describe();
  EXPECT_FALSE(fs::exists(ghost));
}

TEST_F(SessionList, StatusShowsTheStateOfEachRunningSession) {
  const RunResult none = run_process(with_env({"status"}));
  EXPECT_EQ(none.exit_code, 0) << none.describe();
  EXPECT_EQ(none.out, "no sessions are running\n");

  const std::vector<std::string> args =
      with_env({"launch", "--session-new", "held", "--cpu-utilization", "-o",
                (runtime_ / "w").string(), kWorkload, "--seconds", "4", "--quiet"});
  const pid_t capture = start_in_background(args);
  ASSERT_TRUE(wait_for_socket("held"));

  const RunResult status = run_process(with_env({"status"}));
  EXPECT_EQ(status.exit_code, 0) << status.describe();
  const auto lines = split_lines(status.out);
  ASSERT_GE(lines.size(), 7u) << status.out;
  EXPECT_THAT(lines[0], ::testing::StartsWith("Session held (id "));
  EXPECT_EQ(lines[1], "  state:    not collecting (waiting for prof start, --delay or a capture "
                      "range)");
  EXPECT_THAT(lines[3], HasSubstr("prof-workload --seconds 4"));
  EXPECT_EQ(run_process(with_env({"status", "--session", "held"})).out, status.out);

  const RunResult other = run_process(with_env({"status", "--session", "nope"}));
  EXPECT_EQ(other.exit_code, 2) << other.describe();
  EXPECT_EQ(other.err, "prof: status: no session is named 'nope' (sessions: held)\n");

  int code = 0;
  waitpid(capture, &code, 0);
  EXPECT_TRUE(WIFEXITED(code) && WEXITSTATUS(code) == 0);
}

TEST_F(SessionList, ControlCommandsNeedASession) {
  const RunResult r = run_process(with_env({"--stop"}));
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.err, "prof: stop: there is no session to act on (start one with prof --session-new "
                   "NAME ...)\n");
  const RunResult named = run_process(with_env({"start", "--session", "nope"}));
  EXPECT_EQ(named.exit_code, 2) << named.describe();
}

} // namespace
} // namespace prof::e2e

namespace prof::e2e {
namespace {

TEST_F(SessionList, AttachCannotTakeTheNameOfARunningSessionEither) {
  const std::vector<std::string> args =
      with_env({"--session-new", "taken", "--cpu-utilization", "-o", (runtime_ / "r").string(),
                kWorkload, "--seconds", "2", "--quiet"});
  const pid_t capture = start_in_background(args);
  ASSERT_TRUE(wait_for_socket("taken"));
  const RunResult clash = run_process(with_env(
      {"attach", "--session-new", "taken", "--cpu-utilization", std::to_string(getpid())}));
  EXPECT_EQ(clash.exit_code, 2) << clash.describe();
  EXPECT_THAT(clash.err, HasSubstr("--session-new taken"));
  int status = 0;
  waitpid(capture, &status, 0);
}

} // namespace
} // namespace prof::e2e
