#include "tools/prof/sessions/background_session.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::tool {

std::optional<int> BackgroundSession::fork_capture() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot start the background capture: ") +
                             std::strerror(errno));
  std::fflush(nullptr); // nothing buffered is written twice
  const pid_t capture = fork();
  if (capture < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error(std::string("cannot start the background capture: ") +
                             std::strerror(errno));
  }
  if (capture == 0) {
    close(fds[0]);
    setsid(); // Ctrl-C and the terminal's hang-up no longer reach it
    if (const int null = open("/dev/null", O_RDONLY | O_CLOEXEC); null >= 0) {
      dup2(null, STDIN_FILENO);
      close(null);
    }
    ready_fd_ = fds[1];
    return std::nullopt;
  }
  close(fds[1]);
  char byte = 0;
  ssize_t got;
  do
    got = read(fds[0], &byte, 1);
  while (got < 0 && errno == EINTR);
  close(fds[0]);
  if (got == 1) return 0; // collecting; the capture goes on alone
  // It ended before collecting: its error is printed, its exit code is ours.
  int status = 0;
  while (waitpid(capture, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 1;
}

void BackgroundSession::ready(const std::filesystem::path &log) {
  if (ready_fd_ < 0) return;
  std::fflush(nullptr);
  int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fd = open("/dev/null", O_WRONLY | O_CLOEXEC); // not the closed terminal
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  const char byte = 1;
  if (write(ready_fd_, &byte, 1) != 1) {
  } // the command is gone: nobody waits
  close(ready_fd_);
  ready_fd_ = -1;
}

} // namespace prof::tool
