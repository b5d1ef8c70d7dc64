// The control socket end to end: answers, its folder's checks, stale and
// live sockets, garbage, and another user.
#include "core/control/control_client.hpp"
#include "core/control/control_folder.hpp"
#include "core/control/control_server.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

namespace prof::control {
namespace {

namespace fs = std::filesystem;

class ControlServerTest : public ::testing::Test {
protected:
  static std::string echo(const Request &request) {
    return "ok " + std::string(command_name(request.command)) + " " + request.argument;
  }
  // Connects and sends raw bytes; returns what came back before the close.
  static std::string raw_exchange(const fs::path &socket_path, const std::string &bytes) {
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, socket_path.c_str());
    if (connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) return "no";
    send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string back;
    char buffer[256];
    ssize_t n;
    while ((n = recv(fd, buffer, sizeof buffer, 0)) > 0) back.append(buffer, static_cast<size_t>(n));
    close(fd);
    return back;
  }
  testing::ScratchDir scratch_{"prof-control"};
  fs::path dir_{scratch_.path()};
};

TEST_F(ControlServerTest, AnswersRequestsFromThisUser) {
  ControlServer server(dir_ / "s.sock", echo);
  EXPECT_EQ(send_request(server.path(), {Command::Status, ""}), "ok status ");
  EXPECT_EQ(send_request(server.path(), {Command::Start, "r2"}), "ok start r2");
  EXPECT_EQ(server.answered(), 2u);
  struct stat st {};
  ASSERT_EQ(stat(server.path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// A descriptor sent beside a request (prof's region, to an agent in a
// container) reaches the answer as the same open file, and the server
// closes its copy once it answered.
TEST_F(ControlServerTest, ADescriptorPassedWithARequestReachesTheAnswerThenCloses) {
  int passed_fd = -1;
  struct stat seen {};
  ControlServer server(dir_ / "s.sock", [&](const Request &request) {
    passed_fd = request.fd;
    if (request.fd >= 0) fstat(request.fd, &seen);
    return echo(request);
  });
  std::ofstream(dir_ / "file") << "x";
  const int fd = open((dir_ / "file").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(send_request(server.path(), {Command::Start, "r", fd}), "ok start r");
  struct stat mine {};
  fstat(fd, &mine);
  ASSERT_GE(passed_fd, 0);
  EXPECT_EQ(seen.st_ino, mine.st_ino);
  EXPECT_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC) << "the sender keeps its own";
  const int first = passed_fd;
  EXPECT_EQ(send_request(server.path(), {Command::Status, ""}), "ok status ");
  EXPECT_EQ(passed_fd, -1) << "none passed";
  // Served one after the other: the first request's copy is gone by now.
  EXPECT_EQ(fcntl(first, F_GETFD), -1) << "the server closed its copy";
  close(fd);
}

TEST_F(ControlServerTest, GarbageClosesThatConnectionOnly) {
  ControlServer server(dir_ / "s.sock", echo);
  EXPECT_EQ(raw_exchange(server.path(), std::string("\xff\xff\xff\x7f", 4) + "junk"), "");
  const std::vector<uint8_t> frame = encode_frame("reboot now");
  EXPECT_NE(raw_exchange(server.path(), std::string(frame.begin(), frame.end())).find("error"),
            std::string::npos);
  EXPECT_EQ(raw_exchange(server.path(), "ab"), ""); // stalls: dropped after the timeout
  EXPECT_EQ(server.refused(), 3u);
  EXPECT_EQ(send_request(server.path(), {Command::Stop, ""}), "ok stop ");
}

TEST_F(ControlServerTest, StaleSocketIsReplacedLiveOneRefused) {
  // A socket whose server is gone: bound, never listening.
  const fs::path path = dir_ / "s.sock";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
  close(fd);
  EXPECT_FALSE(socket_alive(path));
  ControlServer server(path, echo);
  EXPECT_TRUE(socket_alive(path));
  EXPECT_THROW(ControlServer second(path, echo), std::runtime_error);
  EXPECT_EQ(send_request(path, {Command::Status, ""}), "ok status ");
  std::ofstream(dir_ / "file.sock") << "x";
  EXPECT_THROW(ControlServer not_a_socket(dir_ / "file.sock", echo), std::runtime_error);
}

// The socket is bound and listening under a name of its own first: the
// session's path appears only when connecting to it works, and nothing else
// is left in the folder (even when a crashed process of this pid left that
// first name behind).
TEST_F(ControlServerTest, ThePathAppearsListeningAndNothingElseIsLeft) {
  std::ofstream(dir_ / ("." + std::to_string(getpid()) + ".bind")) << "left by a crash";
  {
    ControlServer server(dir_ / "s.sock", echo);
    EXPECT_TRUE(socket_alive(server.path()));
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir_))
      names.push_back(entry.path().filename());
    EXPECT_EQ(names, std::vector<std::string>{"s.sock"});
  }
  EXPECT_TRUE(fs::is_empty(dir_)) << "the socket goes with its session";
}

TEST_F(ControlServerTest, NoSessionIsAClearError) {
  try {
    send_request(dir_ / "none.sock", {Command::Stop, ""});
    FAIL();
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("none.sock"), std::string::npos);
  }
}

TEST_F(ControlServerTest, AnotherUserIsRefused) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  ControlServer server(dir_ / "s.sock", echo);
  // Let the other user reach the socket at all; the peer check must refuse it.
  chmod(dir_.c_str(), 0777);
  chmod(server.path().c_str(), 0666);
  const pid_t child = fork();
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
    try {
      send_request(server.path(), {Command::Stop, ""}, std::chrono::seconds(2));
      _exit(0); // answered: wrong
    } catch (const std::exception &) {
      _exit(1); // refused
    }
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(server.refused(), 1u);
  EXPECT_EQ(server.answered(), 0u);
}

TEST_F(ControlServerTest, FolderIsPrivateOrRefused) {
  const fs::path folder = dir_ / "prof";
  ensure_private_folder(folder);
  struct stat st {};
  ASSERT_EQ(stat(folder.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ensure_private_folder(folder); // again: fine
  chmod(folder.c_str(), 0755);
  EXPECT_THROW(ensure_private_folder(folder), std::runtime_error);
  fs::create_directory_symlink(folder, dir_ / "link");
  EXPECT_THROW(ensure_private_folder(dir_ / "link"), std::runtime_error);
  std::ofstream(dir_ / "file") << "x";
  EXPECT_THROW(ensure_private_folder(dir_ / "file"), std::runtime_error);
  EXPECT_FALSE(control_folder().empty());
}

} // namespace
} // namespace prof::control
